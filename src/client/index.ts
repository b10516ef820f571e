/**
 * client/: the streaming OpenAI-compatible client (undici), SSE parsing and
 * timing. This file is the folder's only door.
 */
export { monotonicNs, type Clock } from './clock.js';
export { DEFAULT_TIMEOUTS, type RequestMeta, type RequestSpec, type Target, type Timeouts } from './types.js';
export { createStreamingClient, type StreamingClient, type StreamingClientOptions } from './streaming-client.js';
export { preflight, type PreflightResult } from './preflight.js';
export { buildRequestBody } from './request-body.js';
export { SseParser, type SseDataListener } from './sse-parser.js';
