/**
 * The dialect registry, keyed by kind, the order detection tries them in, and
 * the parser of an `--engine` choice (with a message naming the valid kinds).
 */
import { generic } from './generic.js';
import { llamacpp } from './llamacpp.js';
import { lmdeploy } from './lmdeploy.js';
import { ollamaNative } from './ollama-native.js';
import { ollama } from './ollama.js';
import { openai } from './openai.js';
import { sglang } from './sglang.js';
import { teiDialect } from './tei.js';
import { tgi } from './tgi.js';
import { trtllm } from './trtllm.js';
import { DIALECT_KINDS, type Dialect, type DialectKind } from './types.js';
import { vllm } from './vllm.js';

/** Every dialect by kind (each entry's `kind` is its key; a test checks it). */
export const dialects: Readonly<Record<DialectKind, Dialect>> = {
  vllm,
  sglang,
  tgi,
  tei: teiDialect,
  llamacpp,
  ollama,
  'ollama-native': ollamaNative,
  trtllm,
  lmdeploy,
  openai,
  generic,
};

/**
 * Detection order: the most specific evidence first (a route only one engine has),
 * then `owned_by` values, then the generic fallback, which always matches.
 */
export const DETECTION_ORDER: readonly DialectKind[] = ['ollama', 'llamacpp', 'tei', 'tgi', 'sglang', 'lmdeploy', 'trtllm', 'vllm', 'openai', 'generic'];

/** An `--engine` value: a dialect kind, or `auto` (detect). */
export type EngineChoice = DialectKind | 'auto';

/** The valid `--engine` values, for help texts and messages. */
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', ...DIALECT_KINDS];

/** Parses an `--engine` value; the error message lists every valid value. */
export function parseEngineChoice(text: string): { ok: true; choice: EngineChoice } | { ok: false; message: string } {
  const t = text.trim().toLowerCase();
  if ((ENGINE_CHOICES as readonly string[]).includes(t)) return { ok: true, choice: t as EngineChoice };
  return { ok: false, message: `'${text}' is not a known engine; use one of ${ENGINE_CHOICES.join(', ')}` };
}
