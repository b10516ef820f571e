/**
 * The simulator's tokenizer: one whitespace-separated word is one token. Prompts are
 * counted this way (chat: the words of all message contents, no template tokens),
 * and output is a deterministic stream of pseudo-words, one token each, written
 * with a leading space (" lorem").
 */
import { hashInts, hashString53 } from './random.js';

/** Vocabulary size the token ids of `/tokenize` fall into. */
export const SIM_VOCAB_SIZE = 151_936;

const WORDS = [
  'lorem',
  'ipsum',
  'dolor',
  'sit',
  'amet',
  'consectetur',
  'adipiscing',
  'elit',
  'sed',
  'do',
  'eiusmod',
  'tempor',
  'incididunt',
  'ut',
  'labore',
  'et',
  'dolore',
  'magna',
  'aliqua',
  'enim',
  'ad',
  'minim',
  'veniam',
  'quis',
  'nostrud',
  'exercitation',
  'ullamco',
  'laboris',
  'nisi',
  'aliquip',
  'ex',
  'ea',
  'commodo',
  'consequat',
  'duis',
  'aute',
  'irure',
  'in',
  'reprehenderit',
  'voluptate',
  'velit',
  'esse',
  'cillum',
  'fugiat',
  'nulla',
  'pariatur',
  'excepteur',
  'sint',
  'occaecat',
  'cupidatat',
  'non',
  'proident',
  'sunt',
  'culpa',
  'qui',
  'officia',
  'deserunt',
  'mollit',
  'anim',
  'id',
  'est',
  'laborum',
  'vitae',
  'porta',
] as const;

/** The pseudo-words output is drawn from (the logprobs model's vocabulary). */
export const OUTPUT_WORDS: readonly string[] = WORDS;

/** The tokens (words) of a text; whitespace of any kind separates them. */
export function tokenize(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** The tokens a chat template of `n` tokens puts before a conversation (the same for every request, as a real template's are). */
export function templateWords(n: number): string[] {
  return Array.from({ length: n }, () => '<|template|>');
}

/** A stable token id in [0, SIM_VOCAB_SIZE) for a word. */
export function tokenId(word: string): number {
  return hashString53(word) % SIM_VOCAB_SIZE;
}

/**
 * The text of output tokens [from, to) of one request: each token is one pseudo-word
 * with a leading space, chosen by (seed, request index, token index).
 */
export function outputText(seed: number, requestIndex: number, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i++) text += ` ${WORDS[hashInts(seed, requestIndex, i) % WORDS.length] ?? 'lorem'}`;
  return text;
}
