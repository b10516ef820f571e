/**
 * The fixed workload of the quality score, checked in as data: the prompt set for
 * first-token KL and the reference text for perplexity, each identified by the
 * sha256 of its content. Changing either changes the evaluator's workload, so the
 * pinned hashes below must change with it (a test checks they match).
 */
import { createHash } from 'node:crypto';

/** Name and version of the prompt set. */
export const PROMPT_SET_ID = 'goodput-quality-prompts-v1';

/** The prompts, sent one at a time as a single user message (or a raw prompt on completions). */
export const QUALITY_PROMPTS: readonly string[] = [
  'Explain in two sentences why the sky is blue.',
  'Write a haiku about a lighthouse in winter.',
  'What is the capital of Australia, and why was it chosen?',
  'Translate into French: "The library opens at nine tomorrow."',
  'List three practical uses of a binary search tree.',
  'A train leaves at 14:05 and arrives at 17:50. How long is the journey?',
  'Summarize the plot of Romeo and Juliet in one sentence.',
  'Write a Python function that reverses a linked list.',
  'What are the main differences between TCP and UDP?',
  'Give me a short, friendly reminder to drink water.',
  'Describe the smell of rain to someone who has never experienced it.',
  'What causes the seasons on Earth?',
  'Suggest a name for a small bakery that specializes in sourdough.',
  'Is 221 a prime number? Explain briefly.',
  'Write the opening line of a mystery novel set on a ferry.',
  'How does a refrigerator keep food cold?',
  'Convert 72 degrees Fahrenheit to Celsius and show the formula.',
  'What is the difference between weather and climate?',
  'Write a SQL query that counts orders per customer.',
  'Give two arguments for and two against working from home.',
  'Explain what a hash function is to a twelve-year-old.',
  'Which planet has the longest day, and how long is it?',
  'Write a polite email declining a meeting invitation.',
  'What does the Latin phrase "carpe diem" mean?',
  'Describe how photosynthesis works in three steps.',
  'Recommend a beginner exercise routine for someone with ten minutes a day.',
  'What is the time complexity of merge sort, and why?',
  'Complete the sentence: The most important thing about a good map is',
  'Explain the rule of thirds in photography.',
  'Name three inventions of the nineteenth century and their inventors.',
  'Write a limerick about a cat who learns to code.',
  'Why do boats float even when they are made of steel?',
];

/** The reference text whose perplexity each configuration is scored on (original prose, written for goodput). */
export const REFERENCE_TEXT =
  'The harbor town woke slowly on the morning of the storm. Fishermen checked their moorings twice, ' +
  'and the baker left the shutters half closed, as if the wind could be persuaded to pass by politely. ' +
  'By noon the sky had turned the color of wet slate, and the first heavy drops struck the cobblestones ' +
  'with a sound like scattered coins. Children were called indoors. The ferry to the mainland was cancelled, ' +
  'and a handful of travelers gathered in the small station café, trading guesses about when the sea would calm. ' +
  'An old woman who had lived by the water all her life told them not to worry. Storms like this one, she said, ' +
  'arrive in a hurry and leave in a hurry; the real danger is the quiet afterwards, when people think the worst ' +
  'is over and go out to look at the damage before the last wave has come in. Nobody quite believed her, ' +
  'but nobody argued either. Outside, the lighthouse keeper climbed the spiral stairs to trim the lamp, ' +
  'counting the steps as he always did, one hundred and twelve, and stopping at the narrow window halfway up ' +
  'to watch the boats strain against their ropes. He had kept the light for nineteen years. In that time the ' +
  'lamp had been replaced by an electric bulb, the bulb by a cluster of small bright diodes, and the logbook ' +
  'by a tablet that synchronized itself with an office in the capital. Still, he wrote a line in his own notebook ' +
  'every evening: the direction of the wind, the height of the swell, and the names of the vessels that came ' +
  'home safely. That night he wrote only three words, because every boat had come home, and because the wind ' +
  'was already dropping, exactly as the old woman had promised it would.';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** sha256 (hex) of the prompt set's content: the UTF-8 JSON array of the prompts. */
export function promptSetHash(prompts: readonly string[] = QUALITY_PROMPTS): string {
  return sha256(JSON.stringify(prompts));
}

/** sha256 (hex) of the reference text's UTF-8 bytes. */
export function referenceTextHash(text: string = REFERENCE_TEXT): string {
  return sha256(text);
}

/** The pinned hash of {@link QUALITY_PROMPTS}, as disclosed in receipts and the README. */
export const PROMPT_SET_SHA256 = 'b61b31d3a3849d52d8a49b902c20bcf8b43bca1735eb5e26fab7d6db04a59ae1';

/** The pinned hash of {@link REFERENCE_TEXT}. */
export const REFERENCE_TEXT_SHA256 = 'c96d1ae911b2eb80e1743b3701920cc0d8108dedb8c8e422f51d374fc35264ba';
