/**
 * Prompt corpora from files: JSONL (`{"prompt": …, "output_tokens"?: n}` per
 * line) and ShareGPT-style conversation dumps (a JSON array, or JSONL, of
 * `{"conversations": [{"from": "human", "value": …}, {"from": "gpt", …}]}`:
 * the first human turn is the prompt, the reply after it sets the expected
 * output length). The file's sha256 is recorded; errors name the line.
 */
import { z } from 'zod';
import { readHashed } from './content-hash.js';
import { WorkloadError } from './errors.js';
import type { TokenCounter } from './token-counter.js';

export type CorpusFormat = 'jsonl' | 'sharegpt';

/** One prompt of a corpus; `outputTokens` is the expected output length when the corpus gives one. */
export interface CorpusItem {
  text: string;
  outputTokens?: number;
}

export interface Corpus {
  format: CorpusFormat;
  path: string;
  sha256: string;
  items: CorpusItem[];
  /** Entries left out (ShareGPT conversations without a human turn), with the count only. */
  skipped: number;
}

const jsonlLine = z.object({
  prompt: z.string({ error: 'prompt must be a string' }).min(1, 'prompt must not be empty'),
  output_tokens: z
    .number({ error: 'output_tokens must be a number' })
    .int('output_tokens must be a whole number')
    .positive('output_tokens must be positive')
    .optional(),
});

const turn = z.object({ from: z.string(), value: z.string() });
const conversation = z.object({ conversations: z.array(turn, { error: 'conversations must be a list of {from, value}' }) });

const HUMAN = new Set(['human', 'user']);
const ASSISTANT = new Set(['gpt', 'assistant', 'chatgpt', 'bard', 'model']);

function problem(path: string, where: string, error: z.ZodError): WorkloadError {
  const issue = error.issues[0];
  return new WorkloadError('bad-format', `corpus ${path}:${where}: ${issue?.path.join('.') || '(entry)'}: ${issue?.message ?? 'invalid'}`);
}

/** Entries of a JSON array or of JSON lines, each with where it came from ("line 3", "entry 3"). */
function entries(text: string, path: string): Array<{ where: string; value: unknown }> {
  if (text.trimStart().startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(text);
    } catch {
      throw new WorkloadError('bad-format', `corpus ${path}: starts with '[' but is not a JSON array`);
    }
    return (list as unknown[]).map((value, i) => ({ where: ` entry ${i + 1}`, value }));
  }
  const out: Array<{ where: string; value: unknown }> = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push({ where: `${i + 1}`, value: JSON.parse(line) });
    } catch {
      throw new WorkloadError('bad-format', `corpus ${path}:${i + 1}: not JSON`);
    }
  });
  return out;
}

/**
 * Reads and validates a corpus. ShareGPT replies are counted with `counter` for their expected length.
 * @throws WorkloadError naming the file and line when it cannot be read or an entry is malformed, or when it holds no prompt
 */
export async function loadCorpus(format: CorpusFormat, path: string, counter: TokenCounter): Promise<Corpus> {
  const { bytes, sha256 } = await readHashed(path, 'corpus');
  const items: CorpusItem[] = [];
  let skipped = 0;
  for (const { where, value } of entries(bytes.toString('utf8'), path)) {
    if (format === 'jsonl') {
      const line = jsonlLine.safeParse(value);
      if (!line.success) throw problem(path, where, line.error);
      items.push({ text: line.data.prompt, outputTokens: line.data.output_tokens });
      continue;
    }
    const conv = conversation.safeParse(value);
    if (!conv.success) throw problem(path, where, conv.error);
    const turns = conv.data.conversations;
    const at = turns.findIndex((t) => HUMAN.has(t.from) && t.value.trim() !== '');
    if (at < 0) {
      skipped++;
      continue;
    }
    const reply = turns.slice(at + 1).find((t) => ASSISTANT.has(t.from));
    const outputTokens = reply === undefined ? undefined : await counter.count(reply.value);
    items.push({ text: (turns[at] as z.infer<typeof turn>).value, outputTokens: outputTokens === 0 ? undefined : outputTokens });
  }
  if (items.length === 0) throw new WorkloadError('bad-format', `corpus ${path}: holds no prompt`);
  return { format, path, sha256, items, skipped };
}
