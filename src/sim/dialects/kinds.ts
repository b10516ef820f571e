/**
 * The names of the engines the simulator can play. Apart from the dialect
 * types because the profile schema validates a profile's dialect by them,
 * while a dialect's routes read a whole profile.
 */

/** Engines the simulator can play; `goodput` is its own (vLLM-like) shape. */
export const SIM_DIALECT_KINDS = ['goodput', 'vllm', 'sglang', 'tgi', 'llamacpp', 'ollama', 'trtllm', 'lmdeploy', 'openai'] as const;
export type SimDialectKind = (typeof SIM_DIALECT_KINDS)[number];
