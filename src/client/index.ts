/**
 * client/: the streaming OpenAI-compatible client (its own HTTP/1.1 pool; undici for probes), SSE and NDJSON
 * parsing, timing, and engine dialects with detection. This file is the
 * folder's only door.
 */
export { monotonicNs, type Clock } from './clock.js';
export { traceIdSource, type TraceIds } from './trace-context.js';
export { DEFAULT_TIMEOUTS, type RequestMeta, type CancelPoint, type RequestSpec, type Target, type TextEndpoint, type Timeouts } from './types.js';
export { createStreamingClient, type PreparedRequest, type StreamingClient, type StreamingClientOptions } from './streaming-client.js';
export { createFleetClient, routeTo } from './fleet-client.js';
export { answerOf, responseIdOf, toolCallsOf } from './stream-handler.js';
export { preflight, type PreflightResult } from './preflight.js';
export { MIN_THINKING_BUDGET } from './dialects/messages-body.js';
export { resolveTarget, type ResolvedTarget } from './target.js';
export { isLoopback, serverRoot } from './server-url.js';
export { httpErrorMessage } from './error-text.js';
export { buildRequestBody } from './request-body.js';
export { SseParser, type SseDataListener } from './sse-parser.js';
export { NdjsonParser, type NdjsonLineListener } from './ndjson-parser.js';
export { countTokens, countOf, type TokenCount } from './tokenize.js';
export { readBounded } from './bounded-body.js';
export { detectEngine, identify, probePaths, type Detection } from './dialects/detect.js';
export {
  type HookOutcome,
  SIMULATOR_HOOKS,
  type ServerHooks,
  hookSucceeded,
  keptAnswer,
  profilerCall,
  resetPrefixCache,
  serverHooksOf,
} from './dialects/hooks.js';
export { dialects, DETECTION_ORDER, ENGINE_CHOICES, parseEngineChoice, type EngineChoice } from './dialects/registry.js';
export { modelFamily, type ModelFamily } from './dialects/model-family.js';
export {
  DIALECT_KINDS,
  ENGINE_KINDS,
  type Dialect,
  type DialectKind,
  type DialectSettings,
  type DialectWarning,
  type EngineHooks,
  type EngineKind,
  type MetricRole,
  type MetricsFacts,
  type ProbeEvidence,
  type ProbeReply,
} from './dialects/types.js';
export { serverFingerprint } from './server-fingerprint.js';
export { configurationFrom, engineConfiguration, settingsIn, simConfiguration } from './server-configuration.js';
export {
  createPoolingClient,
  poolingBody,
  poolingRoute,
  poolingRoutesFor,
  type PoolingClient,
  type PoolingPayload,
  type PoolingRoute,
} from './pooling-client.js';
export { readPoolingAnswer, type PoolingAnswer } from './pooling-answer.js';
export { createTranscriptionClient, transcriptionBody, type TranscriptionClient, type TranscriptionClip } from './transcription-client.js';
