/**
 * The simulator's only door: an OpenAI-compatible simulated LLM server with an
 * explicit performance model (prefill, batched decode steps, KV budget, queueing,
 * prefix caching, reasoning) and seeded fault injection; it can play each
 * serving engine's dialect (`dialect`). Tokenizer: one whitespace-separated word
 * is one token.
 */
export { simProfileSchema, type SimProfile, type SimFaults, type SimGpu } from './profile-schema.js';
export { loadSimProfile } from './load-sim-profile.js';
export { startSimulator, type SimServer, type SimServerOptions, type SimProfileInput } from './server.js';
export type { SimStats } from './sim-stats.js';
export type { FaultKind } from './faults.js';
export type { StreamShape } from './stream-shape.js';
export { WARMUP_HEADER } from './generation-handler.js';
export { registerSimCommand } from './sim-command.js';
export { spawnSimProcess, type SimProcess } from './spawn-sim-process.js';
export { SIM_DIALECT_KINDS, type SimDialectKind } from './dialects/kinds.js';
export { SIM_DIALECTS } from './dialects/registry.js';
