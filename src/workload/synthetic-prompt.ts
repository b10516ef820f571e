/**
 * Synthetic prompts of a target length. Each word is a common English word that
 * BPE tokenizers of the main model families encode as one token after a space,
 * and the simulator's tokenizer counts one token per word. The exact count on a
 * real model is what the server reports in `usage.prompt_tokens`, which the
 * records keep. The first word is a per-request salt so no two prompts share a
 * prefix: a cold prefix cache stays cold.
 */
import { mulberry32 } from '../core/index.js';

/** Common English words, each one token after a space in the main BPE families. */
export const COMMON_WORDS: readonly string[] = (
  'the of and to in is was for on that with as by at from his her they this had not are but which have were one all ' +
  'their there been has when who will more would its into only other time new some could these two may then first any ' +
  'like now over such our man out very what even most made after also did many before must well back through years ' +
  'where much your way down should because each just those people how too little state good world make still own see ' +
  'men work long get here between both life being under never day same another know while last might us great old year ' +
  'off come since against go came right used take three house small place water number part word left hand high city'
).split(' ');

/**
 * A prompt of `words` words: a salt word (`r<salt>`), then words drawn with `seed`.
 * @param words target length in words (≈ tokens), ≥ 1
 */
export function syntheticPrompt(words: number, seed: number, salt: string): string {
  const rand = mulberry32(seed);
  const out: string[] = [`r${salt}`];
  for (let i = 1; i < words; i++) out.push(COMMON_WORDS[Math.floor(rand() * COMMON_WORDS.length)] as string);
  return out.join(' ');
}
