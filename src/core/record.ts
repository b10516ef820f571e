/**
 * The raw per-request record: named instants and counts, nothing derived.
 * Every latency metric is a function of a record (see metrics in this folder).
 *
 * Instants are monotonic nanoseconds since the run's epoch (a float64 number:
 * exact to the nanosecond for ~104 days), taken as bytes arrive, before parsing.
 */

import type { RateLimitSeen } from './rate-limit.js';

/** Where an output-token count came from, strongest first. */
export type TokenSource = 'usage' | 'tokenizer' | 'chunks';

/** Phase of a request a timeout or failure happened in. */
export type Phase = 'connect' | 'headers' | 'first-token' | 'stream';

/** How a request ended. Only `ok` counts as a success. */
export type Outcome =
  | { kind: 'ok' }
  /** Non-2xx status. Classified by status, never by message text. */
  | { kind: 'http-error'; status: number; message: string }
  /** An error event inside a 200 stream, or an unparseable event. */
  | { kind: 'stream-error'; message: string }
  /** The stream closed without `[DONE]` or a finish reason. */
  | { kind: 'truncated'; message: string }
  | { kind: 'timeout'; phase: Phase; message: string }
  /** Socket-level failure (refused, reset) with the system code. */
  | { kind: 'connection-error'; code: string; phase: Phase; message: string }
  /** A line, an event or an error body past its row of the limits table: read no further, the message names the limit. */
  | { kind: 'response-too-large'; phase: Phase; message: string }
  /** More events or tokens than the output cap allows (maxEventsPerRequest, maxTokensPerRequest): cut off, not buffered. */
  | { kind: 'stream-overrun'; message: string }
  /** Cancelled by us (run stopped). Not counted as a server failure. */
  | { kind: 'aborted' }
  /**
   * Given up on purpose by the workload (`--cancel-after-ms`, `--cancel-after-tokens`): the socket was
   * closed at that point, as a user who stops waiting does. Neither a success nor a failure: counted apart
   * and kept out of every latency and throughput figure. `after` names what ran out; `phase` where it stood.
   */
  | { kind: 'cancelled'; after: CancelTrigger; phase: Phase }
  /** The worker process sending it stopped answering mid-level: never finished, counted as failed, the message names the worker. */
  | { kind: 'client-lost'; message: string }
  /**
   * Refused by us before a byte was sent: the body past our own request-body limit
   * (`ERR_REQUEST_BODY_LIMIT`: a session resends the server's answers and can outgrow it)
   * or a body or request id that could not be built (`ERR_REQUEST_BODY`). Our limit, not the server's failure.
   */
  | { kind: 'not-sent'; code: NotSentCode; message: string };

/** What ran out when a request was given up on purpose: its time since the send, or the tokens it was to read. */
export type CancelTrigger = 'ms' | 'tokens';

/** Why we refused to send a request, as a stable code. */
export type NotSentCode = 'ERR_REQUEST_BODY_LIMIT' | 'ERR_REQUEST_BODY';

export type OutcomeKind = Outcome['kind'];

/**
 * What became of the tool calls a request asked for: `valid` (every call's arguments parse as JSON
 * and validate against its tool's schema), `invalid` (they parse, a schema check fails), `unparsed`
 * (arguments that are not JSON, an unknown tool, or a call cut off), `missing` (a call was required
 * and none came), `none` (tool_choice auto and the model answered in text).
 */
export type ToolCallVerdict = 'valid' | 'invalid' | 'unparsed' | 'missing' | 'none';

/** The tool calls of a request sent with tools; instants in ns of the client clock. */
export interface ToolCallRecord {
  /** tool_choice was `required` or a named tool: no call is a miss. */
  required: boolean;
  /** Calls in the answer. */
  calls: number;
  /** Their function names, in order (sanitised, bounded). */
  names: string[];
  /** First chunk carrying tool-call data (a name or argument text): the end of time to first tool-call token. */
  firstNs: number | null;
  /** Last chunk carrying argument text: the arguments were complete. */
  argumentsDoneNs: number | null;
  /** Tokens of the chunks that carried tool-call data. */
  argumentTokens: number;
  verdict: ToolCallVerdict;
  /** Why, when not valid: the first parse or schema problem, in words. */
  problem: string | null;
}

/**
 * A structured-output request: whether it was sent with the JSON schema (or is one of the plain
 * controls the level compares against), and whether its answer parses and validates.
 */
export interface StructuredRecord {
  /** Sent with the schema; false: a control request of the same workload without it. */
  schema: boolean;
  /** null for a control. */
  verdict: 'valid' | 'invalid' | 'unparsed' | null;
  problem: string | null;
}

/**
 * An earlier attempt of a retried request: answered with a retryable status (429,
 * 529, 503) and a Retry-After, then waited on. Instants in ns of the client clock.
 */
export interface RetryAttempt {
  status: number;
  sendNs: number;
  /** Its answer ended. */
  endNs: number;
  /** What was waited after it before the next attempt, ms (its Retry-After). */
  waitMs: number;
}

export interface RequestRecord {
  /** Sequence number within its level (warm-ups included). */
  seq: number;
  /** Concurrency level the request belonged to. */
  concurrency: number;
  /** Warm-up requests are kept for audit but excluded from every metric. */
  warmup: boolean;
  /**
   * Sent while a ramped level was still opening its streams (--ramp-up): such a record is
   * also `warmup` (kept out of every number, as warm-ups are); this says why. Absent otherwise.
   */
  ramp?: true;
  /** When the scheduler meant to send it. `sendNs - targetSendNs` is our own lag. */
  targetSendNs: number;
  /** When the request was handed to the socket. */
  sendNs: number;
  /**
   * When its last byte was written to the socket (the request fully on the wire);
   * `writtenNs - targetSendNs` is our send lateness, judged per level. Absent when
   * it was never written (refused, connection failed) and in records of earlier versions.
   */
  writtenNs?: number;
  /** Response headers arrived. */
  headersNs: number | null;
  /** First chunk carrying generated text, reasoning or answer (TTFT end). */
  firstTokenNs: number | null;
  /** First chunk carrying answer text, not reasoning (TTFA end). */
  firstAnswerNs: number | null;
  /** Arrival of every token-carrying chunk, in order. */
  chunkNs: number[];
  /** Tokens carried by each chunk in `chunkNs` (exact when the server reports it, else 1). */
  chunkTokens: number[];
  /** True when `chunkTokens` came from the server (cumulative usage per chunk), not assumed. */
  chunkTokensExact: boolean;
  /** End of stream: `[DONE]`, the final event, or the close. */
  endNs: number | null;
  outputTokens: number;
  outputTokenSource: TokenSource;
  /** Reasoning tokens when the server reports them; they are included in outputTokens. */
  reasoningTokens: number | null;
  /** Chunks that carried reasoning text (a lower bound when no count is reported). */
  reasoningChunks: number;
  promptTokens: number | null;
  cachedPromptTokens: number | null;
  finishReason: string | null;
  httpStatus: number | null;
  outcome: Outcome;
  /**
   * True when the first attempt failed on a reused keep-alive socket before any
   * response byte and this record is the one retry on a fresh socket (a client
   * fault, counted per level). Absent: sent once.
   */
  clientRetry?: true;
  /**
   * A request sent again after the provider answered 429, 529 or 503 with Retry-After:
   * its earlier attempts, in order. `sendNs` is then the first attempt's send (the
   * latency the user felt counts from it) and the rest of the record is the last
   * attempt's. Absent: sent once.
   */
  attempts?: RetryAttempt[];
  /** The rate limits the last answer's headers stated (x-ratelimit-*, anthropic-ratelimit-*); absent when none. */
  rateLimit?: RateLimitSeen;
  /** In a multi-turn run: the session (0-based, in start order) and the turn within it (0-based). */
  session?: { id: number; turn: number };
  /** The id sent as `X-Request-Id` (and the engine's own header), to join a server's per-request log; absent in older records. */
  requestId?: string;
  /** The W3C trace id sent in `traceparent` (32 hex), to join the server's traces; absent when turned off and in older records. */
  traceId?: string;
  /** The client span id sent in `traceparent` (16 hex): the parent of the server's spans for this request. */
  spanId?: string;
  /** Requests sent with tools: what became of the calls. Absent otherwise. */
  toolCalls?: ToolCallRecord;
  /** Session turns: bytes of the request body sent (grows with the history a chat session resends; a Responses continuation's does not). Absent otherwise. */
  requestBodyBytes?: number;
  /** Structured-output runs: the schema's verdict on the answer. Absent otherwise. */
  structured?: StructuredRecord;
  /** The LoRA adapter the request named as its model, in a run with several (--lora); absent otherwise and in older records. */
  adapter?: string;
  /** Which client sent it when its level was split over several (e.g. "thread 2", "worker gpu-box-1"); absent when one did. */
  client?: string;
  /** A fleet run (`--url` given more than once): the index of the target it was routed to, in the run's order; absent for one target. */
  target?: number;
  /**
   * Where a send's time went, only when the process runs with GOODPUT_SEND_TRACE=1
   * (the bench's breakdown): the body built, the first request byte about to be
   * written. Never stored: the record schema drops it.
   */
  sendTrace?: { builtNs: number; writeStartNs: number };
}

/** True when a record counts as a success. */
export function isOk(r: RequestRecord): boolean {
  return r.outcome.kind === 'ok';
}

/**
 * True when the server's counters, scraped just before a level's measured requests and just after, saw the
 * request: a measured one, or a timed level's ramp request (sent inside that window, kept out of our figures as a
 * warm-up is). Our side of a comparison with the server, and the window a pool's rates are over, take these.
 */
export function inServerWindow(r: { warmup: boolean; ramp?: boolean }): boolean {
  return !r.warmup || r.ramp === true;
}

/** True when the workload gave the request up on purpose: neither a success nor a failure. */
export function isCancelled(r: { outcome: { kind: string } }): boolean {
  return r.outcome.kind === 'cancelled';
}

/** True when a record counts as a failure: not a success, and not given up on purpose. */
export function isFailed(r: { outcome: { kind: string } }): boolean {
  return r.outcome.kind !== 'ok' && r.outcome.kind !== 'cancelled';
}

const whole = (ns: number | null): number | null => (ns === null ? null : Math.round(ns));

/**
 * The record with every instant in whole nanoseconds. Clocks and schedules give
 * fractions (performance.now() × 1e6, a rate's offsets, a clock offset), noise
 * below a nanosecond; a raw record states integers. Records of earlier versions
 * may hold fractions: they are read as they are (their hash covers them).
 */
export function wholeInstants(r: RequestRecord): RequestRecord {
  return {
    ...r,
    targetSendNs: Math.round(r.targetSendNs),
    sendNs: Math.round(r.sendNs),
    ...(r.writtenNs === undefined ? {} : { writtenNs: Math.round(r.writtenNs) }),
    headersNs: whole(r.headersNs),
    firstTokenNs: whole(r.firstTokenNs),
    firstAnswerNs: whole(r.firstAnswerNs),
    chunkNs: r.chunkNs.map(Math.round),
    endNs: whole(r.endNs),
    ...(r.toolCalls === undefined
      ? {}
      : { toolCalls: { ...r.toolCalls, firstNs: whole(r.toolCalls.firstNs), argumentsDoneNs: whole(r.toolCalls.argumentsDoneNs) } }),
    ...(r.attempts === undefined ? {} : { attempts: r.attempts.map((a) => ({ ...a, sendNs: Math.round(a.sendNs), endNs: Math.round(a.endNs) })) }),
    ...(r.sendTrace === undefined ? {} : { sendTrace: { builtNs: Math.round(r.sendTrace.builtNs), writeStartNs: Math.round(r.sendTrace.writeStartNs) } }),
  };
}
