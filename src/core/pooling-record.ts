/**
 * Non-streaming endpoints (embeddings, rerank): one record per request with its
 * two instants and what the answer held. Nothing is derived here; a level's
 * figures are functions of these records (pooling-level.ts).
 */
import type { RetryAttempt } from './record.js';

/** The non-streaming endpoints goodput measures beside text generation. */
export const POOLING_ENDPOINTS = ['embeddings', 'rerank'] as const;
export type PoolingEndpoint = (typeof POOLING_ENDPOINTS)[number];

/** Whether an endpoint named in a spec, a result or a stored row is embeddings or rerank. */
export const isPoolingEndpoint = (e: unknown): e is PoolingEndpoint => (POOLING_ENDPOINTS as readonly unknown[]).includes(e);

/** How a non-streaming request ended. Only `ok` counts as a success. */
export type PoolingOutcome =
  | { kind: 'ok' }
  /** Non-2xx status. */
  | { kind: 'http-error'; status: number; message: string }
  /** A 200 whose body breaks the endpoint's contract (a vector missing, a NaN, mixed dimensions, a score missing, not JSON). */
  | { kind: 'bad-answer'; message: string }
  | { kind: 'timeout'; message: string }
  | { kind: 'connection-error'; code: string; message: string }
  /** The body went past `poolingResponseBytes`: read no further. */
  | { kind: 'response-too-large'; message: string }
  /** Cancelled by us (run stopped). */
  | { kind: 'aborted' };

/** What every request whose answer comes whole records, whatever its kind. Instants are monotonic nanoseconds. */
export interface WholeRecord {
  seq: number;
  concurrency: number;
  warmup: boolean;
  /** When the request was handed to the socket. */
  sentNs: number;
  /** When the whole body had arrived (or the request failed). */
  endNs: number;
  outcome: PoolingOutcome;
  /**
   * A request sent again after a 429, 529 or 503 with Retry-After: its earlier attempts, in order; `sentNs` is
   * then the first attempt's send, so its latency counts every wait. Absent when it was sent once.
   */
  attempts?: RetryAttempt[];
}

/** One embeddings or rerank request, as measured. */
export interface PoolingRecord extends WholeRecord {
  /** Inputs (embeddings) or documents (rerank) the request carried. */
  items: number;
  /** Input tokens the server reported (usage.prompt_tokens, Ollama's prompt_eval_count); null when it reported none. */
  inputTokens: number | null;
  /** Embeddings: the one dimension of every vector returned; null for rerank or a failed request. */
  dimension: number | null;
  /** The W3C trace id sent in `traceparent` (32 hex), to join the server's traces; absent when turned off and in older records. */
  traceId?: string;
  /** The client span id sent in `traceparent` (16 hex). */
  spanId?: string;
}
