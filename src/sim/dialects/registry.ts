/**
 * Every simulated dialect by kind (`--dialect`).
 */
import { goodput } from './goodput.js';
import { llamacpp } from './llamacpp.js';
import { lmdeploy } from './lmdeploy.js';
import { ollama } from './ollama.js';
import { openai } from './openai.js';
import { sglang } from './sglang.js';
import { tgi } from './tgi.js';
import { trtllm } from './trtllm.js';
import type { SimDialectKind } from './kinds.js';
import type { SimDialect } from './types.js';
import { vllm } from './vllm.js';

/** Each entry's `kind` is its key (a test checks it). */
export const SIM_DIALECTS: Readonly<Record<SimDialectKind, SimDialect>> = {
  goodput,
  vllm,
  sglang,
  tgi,
  llamacpp,
  ollama,
  trtllm,
  lmdeploy,
  openai,
};
