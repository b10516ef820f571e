/**
 * The handler of one streamed request, where every instant is taken. It speaks
 * undici 7's controller API (onRequestStart … onResponseError), driven by the
 * measured send path (h1-pool.ts). The clock is read once per network
 * read, before parsing; every event that read completes gets that instant.
 */
import type { AnswerChecker, Outcome, Phase, RequestRecord } from '../core/index.js';
import type { Clock } from './clock.js';
import type { Dialect } from './dialects/types.js';
import { LIMITS, type RateLimitSeen, parseRateLimitHeaders, parseRetryAfterMs, wholeInstants } from '../core/index.js';
import { excerpt, httpErrorMessage } from './error-text.js';
import { failureOutcome } from './failure.js';
import { eventParser, type EventParser } from './event-parser.js';
import { overflow } from './response-limits.js';
import { type Abortable, unwatchAbort, watchAbort } from './abort-watch.js';
import { type H1Controller, type H1Handler, UNANSWERED_ON_REUSED } from './h1-pool.js';
import { streamOutcome, toRecord } from './stream-outcome.js';
import { StreamRecorder } from './stream-recorder.js';
import { messagesReader } from './messages-reader.js';
import { responsesReader } from './responses-reader.js';
import { structuredRecord } from './structured-answer.js';
import type { ToolExpectation } from './tool-calls.js';
import type { CancelPoint, RequestMeta, Timeouts } from './types.js';
import type { QuietQueue } from './quiet-queue.js';

/** Answer texts kept beside their records, never in them: records are stored and exported; answers are only sent back. */
const ANSWERS = new WeakMap<RequestRecord, string>();

/** The answer text of a request sent with `keepAnswer`, or undefined. */
export function answerOf(record: RequestRecord): string | undefined {
  return ANSWERS.get(record);
}

/** `to` (a copy of `from`, e.g. marked as a retry) keeps `from`'s answer. */
export function withAnswerOf(from: RequestRecord, to: RequestRecord): RequestRecord {
  const answer = ANSWERS.get(from);
  if (answer !== undefined) ANSWERS.set(to, answer);
  const calls = TOOL_CALLS.get(from);
  if (calls !== undefined) TOOL_CALLS.set(to, calls);
  const id = RESPONSE_IDS.get(from);
  if (id !== undefined) RESPONSE_IDS.set(to, id);
  return to;
}

/** The tool calls of a request sent with tools (name and argument text as streamed), kept beside the record like answers. */
const TOOL_CALLS = new WeakMap<RequestRecord, ReadonlyArray<{ name: string; arguments: string }>>();

/** Ids of Responses API answers, kept beside their records (a session's next turn continues them). */
const RESPONSE_IDS = new WeakMap<RequestRecord, string>();

/** The id of a Responses API answer, or undefined. */
export function responseIdOf(record: RequestRecord): string | undefined {
  return RESPONSE_IDS.get(record);
}

/** What an answer's Retry-After asked for, ms, kept beside its record (the retry policy reads it; a record never holds it). */
const RETRY_AFTER = new WeakMap<RequestRecord, number>();

/** The Retry-After (or retry-after-ms) of the answer a record ended with, ms, or null. */
export function retryAfterOf(record: RequestRecord): number | null {
  return RETRY_AFTER.get(record) ?? null;
}

/** The calls a request sent with tools received, or undefined. */
export function toolCallsOf(record: RequestRecord): ReadonlyArray<{ name: string; arguments: string }> | undefined {
  return TOOL_CALLS.get(record);
}

/** What a handler shares with its client. */
export interface HandlerContext {
  clock: Clock;
  timeouts: Timeouts;
  /** Scrubs the API key from outcome messages. */
  redact: (text: string) => string;
  /** True once the client is closing: failures then read as `aborted`. */
  closing: () => boolean;
  /** How the engine frames its stream, where its fields are, and what its statuses mean. */
  dialect: Dialect;
  /** Keep each send's breakdown (body built, write started) on its record: the bench's GOODPUT_SEND_TRACE. */
  trace: boolean;
  /** Wall-clock ms, read only to turn a header's date (Retry-After, a reset) into a wait. */
  wallMs: () => number;
  /** Where the records of streams already replaced (onEnded) are built: after the burst of reads. */
  later: QuietQueue;
}

/** Most bytes of a non-2xx body kept to extract its message. */
const MAX_ERROR_BODY_BYTES = LIMITS.errorBodyBytes.max;

/**
 * Stamps `sendNs` (just before dispatch), `writtenNs` (the request on the wire), `headersNs`, one instant per read and
 * `endNs` (`[DONE]`, close or failure); resolves the record exactly once.
 */
export class StreamHandler implements H1Handler, Abortable {
  private readonly rec: StreamRecorder;
  private readonly parser: EventParser;
  private controller: H1Controller | null = null;
  private sendNs = 0;
  private writtenNs: number | null = null;
  private writeStartNs = 0;
  /** Set by the client when tracing: when the body was built. */
  builtNs = 0;
  /** Hears a stream that ended well as its end is read; its record is then built in a quiet moment (ctx.later). */
  onEnded: ((endNs: number) => void) | null = null;
  private headersNs: number | null = null;
  private lastReadNs = 0;
  private status: number | null = null;
  private statusText = '';
  private contentType = '';
  private rateLimit: RateLimitSeen | null = null;
  private retryAfterMs: number | null = null;
  private errorBody: Buffer[] | null = null;
  private errorBytes = 0;
  private settled = false;
  private timer: NodeJS.Timeout | null = null;
  /** Set when the request is to be given up on purpose: after this many ms (armed at the send), after this many tokens. */
  private cancelMs: number | null = null;
  private cancelTokens: number | null = null;
  private cancelTimer: NodeJS.Timeout | null = null;
  private signal: AbortSignal | null = null;
  private tools: ToolExpectation | null = null;
  private responseId: string | null = null;
  private bodyBytes: number | null = null;
  /** Set for a structured-output request: its answer's checker, or null for a control. */
  private structured: { check: AnswerChecker | null } | null = null;

  /**
   * `outputCap` is the request's max_tokens: it bounds the events and tokens the stream may send.
   * `retry`, when given, is called instead of resolving when the request failed on a reused
   * keep-alive socket before any response byte (the caller sends it again on a fresh one).
   */
  constructor(
    private readonly ctx: HandlerContext,
    private readonly meta: RequestMeta,
    outputCap: number,
    private readonly resolve: (r: RequestRecord) => void,
    private readonly retry: (() => void) | null = null,
  ) {
    this.rec = new StreamRecorder(ctx.dialect.stream, outputCap);
    this.parser = eventParser(ctx.dialect.api.framing, this.rec.onData, this.rec.onEmpty);
  }

  /** Arms the total timeout and the abort signal, stamps `sendNs`, then calls `dispatch`. */
  start(dispatch: () => void, signal?: AbortSignal): void {
    if (signal?.aborted) {
      this.sendNs = this.ctx.clock();
      return this.settle({ kind: 'aborted' }, this.sendNs);
    }
    if (signal) {
      this.signal = signal;
      watchAbort(signal, this);
    }
    this.timer = setTimeout(this.onTotalTimeout, this.ctx.timeouts.totalMs);
    this.timer.unref();
    if (this.cancelMs !== null) {
      this.cancelTimer = setTimeout(() => this.stop({ kind: 'cancelled', after: 'ms', phase: this.phase() }), this.cancelMs);
      this.cancelTimer.unref();
    }
    this.sendNs = this.ctx.clock();
    try {
      dispatch();
    } catch (err) {
      this.onResponseError(null, err as Error);
    }
  }

  onRequestStart(controller: H1Controller): void {
    if (this.settled) return controller.abort(new Error('request already settled'));
    this.controller = controller;
    if (this.ctx.trace) this.writeStartNs = this.ctx.clock();
  }

  onWritten(): void {
    this.writtenNs ??= this.ctx.clock();
  }

  onResponseStart(_c: H1Controller, statusCode: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void {
    if (statusCode < 200 || this.settled) return;
    this.headersNs = this.ctx.clock();
    this.status = statusCode;
    this.statusText = statusMessage ?? '';
    this.contentType = String(headers['content-type'] ?? '');
    const wall = this.ctx.wallMs();
    this.rateLimit = parseRateLimitHeaders(headers, wall);
    if (statusCode >= 300) {
      this.errorBody = [];
      this.retryAfterMs = parseRetryAfterMs(headers, wall);
    }
  }

  onResponseData(_c: H1Controller, chunk: Buffer): void {
    const ns = this.ctx.clock();
    if (this.settled) return;
    if (this.errorBody !== null) {
      if (this.errorBytes + chunk.length > MAX_ERROR_BODY_BYTES) return this.errorBodyTooLarge();
      this.errorBody.push(Buffer.from(chunk));
      this.errorBytes += chunk.length;
      return;
    }
    this.lastReadNs = ns;
    this.rec.nowNs = ns;
    this.parser.push(chunk);
    if (this.cutOff()) return;
    if (this.rec.doneNs !== null) this.settle(streamOutcome(this.rec, this.contentType, this.ctx.dialect.api.accept), this.rec.doneNs);
    // A stream that ended in this read is complete; one still going that has read its tokens is given up here.
    else if (this.cancelTokens !== null && this.rec.tokensRead >= this.cancelTokens) this.stop({ kind: 'cancelled', after: 'tokens', phase: this.phase() });
  }

  /** Stops a stream whose line, event, event count or token count went past its limit; true when it did. */
  private cutOff(): boolean {
    const over = this.parser.overflow;
    if (over !== null) this.stop({ kind: 'response-too-large', phase: this.phase(), message: over.message });
    else if (this.rec.overrun !== null) this.stop({ kind: 'stream-overrun', message: this.rec.overrun });
    return this.settled;
  }

  /** An error body past its limit: what it starts with is kept, the rest is never read. */
  private errorBodyTooLarge(): void {
    const head = excerpt(Buffer.concat(this.errorBody ?? []).toString('utf8'), 120);
    const what = overflow('errorBodyBytes', `the HTTP ${this.status ?? 0} error body`).message;
    this.stop({ kind: 'response-too-large', phase: this.phase(), message: head === '' ? what : `${what}; it starts: ${head}` });
  }

  onResponseEnd(): void {
    const ns = this.ctx.clock();
    if (this.settled) return;
    if (this.errorBody !== null) {
      const body = Buffer.concat(this.errorBody).toString('utf8');
      const status = this.status ?? 0;
      const note = this.ctx.dialect.errors.statusNotes[status];
      const message = httpErrorMessage(status, this.statusText, body);
      return this.settle({ kind: 'http-error', status, message: note === undefined ? message : `${note}: ${message}` }, ns);
    }
    this.rec.nowNs = this.lastReadNs;
    this.parser.end();
    if (this.cutOff()) return;
    this.settle(streamOutcome(this.rec, this.contentType, this.ctx.dialect.api.accept), this.rec.doneNs ?? ns);
  }

  onResponseError(_c: H1Controller | null, err: Error): void {
    const ns = this.ctx.clock();
    const reused = (err as { [UNANSWERED_ON_REUSED]?: boolean })[UNANSWERED_ON_REUSED] === true;
    if (this.settled) return;
    if (reused && this.retry !== null && this.headersNs === null && !this.ctx.closing()) {
      this.release();
      return this.retry();
    }
    const outcome = this.ctx.closing() ? { kind: 'aborted' as const } : failureOutcome(err, this.phase(), this.ctx.timeouts);
    this.settle(outcome, ns);
  }

  private phase(): Phase {
    if (this.controller === null) return 'connect';
    if (this.headersNs === null) return 'headers';
    return this.rec.firstTokenNs === null ? 'first-token' : 'stream';
  }

  onAbort(): void {
    this.stop({ kind: 'aborted' });
  }

  private readonly onTotalTimeout = (): void => {
    const message = `no complete response within ${this.ctx.timeouts.totalMs} ms (total timeout)`;
    this.stop({ kind: 'timeout', phase: this.phase(), message });
  };

  /** Settles now and cancels the request on the wire (at once, or as soon as it starts). */
  private stop(outcome: Outcome): void {
    if (this.settled) return;
    this.settle(outcome, this.ctx.clock());
    this.controller?.abort(new Error('request cancelled by the client'));
  }

  /** Marks the handler done and drops its timer and abort listener. */
  private release(): void {
    this.settled = true;
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.cancelTimer !== null) clearTimeout(this.cancelTimer);
    if (this.signal !== null) unwatchAbort(this.signal, this);
  }

  /** The request is given up on purpose at this point (its socket closed, as a user who stops waiting does); set before start. */
  cancelAt(point: CancelPoint): this {
    this.cancelMs = point.afterMs;
    this.cancelTokens = point.afterTokens;
    return this;
  }

  /** Keeps the answer text of this stream (read back with answerOf). */
  keepAnswer(): this {
    this.rec.answerParts = [];
    return this;
  }

  /** A structured-output request: its answer is kept and judged by `check` (null: a control, sent without the schema). */
  expectAnswerSchema(check: AnswerChecker | null): this {
    this.structured = { check };
    this.rec.answerParts ??= [];
    return this;
  }

  /** The request body's size, kept on the record. */
  sentBytes(bytes: number): this {
    this.bodyBytes = bytes;
    return this;
  }

  /** The request went to the Responses API: its events are read as such, its id kept. */
  readResponsesEvents(): this {
    this.rec.useReader(
      responsesReader((id) => {
        this.responseId ??= id;
      }),
    );
    return this;
  }

  /** The request went to Anthropic's Messages API: its events are read as such. */
  readMessagesEvents(): this {
    this.rec.useReader(messagesReader());
    return this;
  }

  /** The request was sent with tools: its calls are judged against them. */
  expectTools(tools: ToolExpectation): this {
    this.tools = tools;
    return this;
  }

  private settle(outcome: Outcome, endNs: number): void {
    if (this.settled) return;
    this.release();
    const ended = this.onEnded;
    if (ended !== null && outcome.kind === 'ok') {
      // The slot is free now: its replacement leaves first, and the record is built once the burst of reads is
      // over, so a burst of ends is not replaced one record-build apart.
      ended(endNs);
      this.ctx.later.push(() => this.complete(outcome, endNs));
      return;
    }
    this.complete(outcome, endNs);
  }

  /** Builds the record of a settled stream and resolves it. */
  private complete(outcome: Outcome, endNs: number): void {
    if ('message' in outcome) outcome.message = this.ctx.redact(outcome.message);
    const built = toRecord(this.rec, this.meta, {
      sendNs: this.sendNs,
      writtenNs: this.writtenNs,
      headersNs: this.headersNs,
      endNs,
      httpStatus: this.status,
      outcome,
      trace: this.ctx.trace ? { builtNs: this.builtNs, writeStartNs: this.writeStartNs } : null,
    });
    if (this.bodyBytes !== null) built.requestBodyBytes = this.bodyBytes;
    if (this.rateLimit !== null) built.rateLimit = this.rateLimit;
    if (this.tools !== null) built.toolCalls = this.rec.tools.toRecord(this.tools, this.rec.finishReason);
    // Whole before anything is keyed on it: what the maps below hold is the record returned.
    const record = wholeInstants(built);
    if (this.tools !== null) TOOL_CALLS.set(record, this.rec.tools.list());
    const answer = this.rec.answerParts?.join('') ?? null;
    if (this.structured !== null) record.structured = structuredRecord(this.structured.check, answer ?? '');
    if (answer !== null) ANSWERS.set(record, answer);
    if (this.responseId !== null) RESPONSE_IDS.set(record, this.responseId);
    if (this.retryAfterMs !== null) RETRY_AFTER.set(record, this.retryAfterMs);
    this.resolve(record);
  }
}
