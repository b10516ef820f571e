/**
 * One generation request in flight: receives the engine's emissions and writes the
 * response. Streaming writes one pre-built string per emission with a single
 * `res.write()` (the role chunk rides with the first token, the finish, usage and
 * `[DONE]` events with the last); non-streaming answers once, at the last emission.
 * Mid-stream faults act at the middle emission. True timings go to the metrics.
 */
import type { ServerResponse } from 'node:http';
import type { Emission, Sequence, SequenceEvents } from './sequence.js';
import type { StreamFaultKind } from './faults.js';
import type { GenerationPlan } from './generation-plan.js';
import { errorJson, sendError, sendJsonText } from './http-util.js';
import type { SimProfile } from './profile-schema.js';
import { continuousUsageJson, usageJson, type ResponseFormat } from './response-format.js';
import type { SimMetrics } from './sim-metrics.js';
import type { StatsCollector } from './sim-stats.js';
import { epochMs, type RequestLog, type RequestLogEntry } from './request-log.js';
import { outputText } from './tokenizer.js';

/** Shared services a run reports to. */
export interface RunContext {
  profile: SimProfile;
  now: () => number;
  metrics: SimMetrics;
  stats: StatsCollector;
  /** The per-request log (`--request-log`), or null. */
  requestLog: RequestLog | null;
}

/** Who a request is and when it was read, for the request log. */
export interface RequestTrace {
  /** Its `X-Request-Id`, or null. */
  id: string | null;
  /** When it was read (headers parsed), ms on the runtime's clock. */
  receivedMs: number;
}

const DONE = 'data: [DONE]\n\n';
const MID_STREAM_MESSAGE = 'Simulated engine error in the middle of the stream (injected fault).';
const MID_STREAM_ERROR = `data: ${errorJson(500, MID_STREAM_MESSAGE)}\n\n`;

/** Writes one request's response as the engine emits its tokens. */
export class GenerationRun implements SequenceEvents {
  /** Set by the handler right after `engine.submit`. */
  sequence: Sequence | null = null;
  private ended = false;
  private cachedTokens = 0;
  private firstDueMs = 0;
  private admitMs = 0;
  private lastWriteMs = 0;
  private firstWriteMs: number | null = null;
  private tokensWritten = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly plan: GenerationPlan,
    private readonly format: ResponseFormat,
    private readonly res: ServerResponse,
    private readonly arrivalMs: number,
    private readonly requestIndex: number,
    private readonly fault: StreamFaultKind | null,
    private readonly faultEmission: number,
    private readonly trace: RequestTrace = { id: null, receivedMs: arrivalMs },
  ) {
    if (plan.stream) {
      res.writeHead(200, { 'content-type': format.wire?.contentType ?? 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.flushHeaders();
    }
  }

  onAdmit(atMs: number, cachedTokens: number): void {
    const m = this.ctx.metrics;
    this.cachedTokens = cachedTokens;
    this.admitMs = atMs;
    m.queue.observe((atMs - this.arrivalMs) / 1000);
    m.promptTokens += this.plan.promptTokens;
    if (this.ctx.profile.prefixCaching) {
      m.prefixQueries += this.plan.promptTokens;
      m.prefixHits += cachedTokens;
    }
  }

  onEmit(e: Emission): boolean {
    if (this.ended || this.res.destroyed) return false;
    if (e.index === 0) {
      this.firstDueMs = e.dueMs;
      this.ctx.metrics.role?.prefillTime.observe((e.dueMs - this.admitMs) / 1000);
    }
    if (e.index === this.faultEmission && (this.fault === 'dropStream' || this.fault === 'midStreamError')) {
      return this.failMidway(this.fault);
    }
    if (this.plan.stream) this.writeChunk(e);
    else if (e.last) this.writeBody();
    this.observe(e);
    if (e.last) {
      this.ended = true;
      this.ctx.stats.complete(this.arrivalMs, this.firstDueMs, e.dueMs, this.plan.promptTokens, this.plan.outputTokens);
      this.ctx.metrics.finished(this.plan.finishReason);
      this.log('complete');
    }
    return true;
  }

  private log(end: RequestLogEntry['end']): void {
    const log = this.ctx.requestLog;
    if (log === null) return;
    const at = (ms: number | null) => (ms === null ? null : epochMs(ms));
    log.add({
      id: this.trace.id,
      arrivalMs: epochMs(this.trace.receivedMs),
      firstWriteMs: at(this.firstWriteMs),
      lastWriteMs: at(this.firstWriteMs === null ? null : this.lastWriteMs),
      outputTokens: this.tokensWritten,
      end,
    });
  }

  /** The client went away before the end. Returns true when that cancelled the request. */
  abandon(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.ctx.stats.cancelled++;
    this.ctx.metrics.finished('abort');
    this.log('cancelled');
    return true;
  }

  private observe(e: Emission): void {
    const m = this.ctx.metrics;
    const nowMs = this.ctx.now();
    if (this.plan.stream || e.last) {
      this.ctx.stats.lateness.record(nowMs - e.dueMs);
      this.ctx.metrics.lateness.observe(Math.max(0, nowMs - e.dueMs) / 1000);
    }
    m.generationTokens += e.to - e.from;
    this.tokensWritten += e.to - e.from;
    if (e.index === 0) this.firstWriteMs = nowMs;
    if (e.index === 0) m.ttft.observe((nowMs - this.arrivalMs) / 1000);
    else m.itl.observe((nowMs - this.lastWriteMs) / 1000);
    if (e.last) m.e2e.observe((nowMs - this.arrivalMs) / 1000);
    this.lastWriteMs = nowMs;
  }

  private usage(completionTokens: number): string {
    const reasoningTokens = Math.min(this.plan.reasoningTokens, completionTokens);
    return usageJson({ promptTokens: this.plan.promptTokens, completionTokens, cachedTokens: this.cachedTokens, reasoningTokens });
  }

  private text(from: number, to: number): [reasoning: string, answer: string] {
    const r = this.plan.reasoningTokens;
    const seed = this.ctx.profile.seed;
    const reasoning = from < r ? outputText(seed, this.requestIndex, from, Math.min(to, r)) : '';
    const json = this.plan.json;
    // A JSON answer (a schema was asked for) instead of words.
    const words = (a: number, b: number) => (json === null ? outputText(seed, this.requestIndex, a, b) : json.slice(a - r, b - r).join(''));
    const answer = to > r ? words(Math.max(from, r), to) : '';
    return [reasoning, answer];
  }

  private writeChunk(e: Emission): void {
    const { plan, format } = this;
    const continuous = (n: number): string | null => (plan.continuousUsage ? continuousUsageJson(plan.promptTokens, n) : null);
    let out = e.index === 0 ? format.opening(continuous(0)) : '';
    if (e.index === this.faultEmission && this.fault === 'malformedSse') out += 'data: {not json\n\n';
    const [reasoning, answer] = this.text(e.from, e.to);
    const tool = plan.tool;
    const r = plan.reasoningTokens;
    if (tool === null || format.toolChunk === undefined) {
      out += format.chunk(reasoning, answer, e.last ? plan.finishReason : null, continuous(e.to));
    } else {
      // Reasoning first, then the call: its id and name ride with the first argument piece.
      if (reasoning !== '' || e.to <= r) out += format.chunk(reasoning, '', e.last && e.to <= r ? plan.finishReason : null, continuous(Math.min(e.to, r)));
      const from = Math.max(e.from, r);
      if (e.to > from) {
        const head = from === r ? { id: tool.id, name: tool.name } : null;
        out += format.toolChunk(head, tool.pieces.slice(from - r, e.to - r).join(''), e.last ? plan.finishReason : null, continuous(e.to));
      }
    }
    if (!e.last) {
      this.res.write(out);
      // node:http corks the socket until the next tick; flush now so the bytes leave at the due time.
      this.res.socket?.uncork();
      return;
    }
    if (plan.includeUsage) out += format.usageChunk(this.usage(plan.outputTokens));
    this.res.end(out + (format.wire?.terminator ?? DONE));
  }

  private writeBody(): void {
    if (this.fault === 'malformedSse') return sendJsonText(this.res, 200, '{not json');
    const [reasoning, answer] = this.text(0, this.plan.outputTokens);
    const tool = this.plan.tool;
    const usage = this.usage(this.plan.outputTokens);
    if (tool !== null && this.format.toolBody !== undefined) {
      const args = tool.pieces.slice(0, Math.max(0, this.plan.outputTokens - this.plan.reasoningTokens)).join('');
      return sendJsonText(this.res, 200, this.format.toolBody({ id: tool.id, name: tool.name }, args, this.plan.finishReason, usage));
    }
    sendJsonText(this.res, 200, this.format.body(reasoning, answer, this.plan.finishReason, usage));
  }

  private failMidway(fault: 'dropStream' | 'midStreamError'): false {
    this.ended = true;
    this.log('fault');
    if (fault === 'dropStream') {
      this.ctx.metrics.finished('abort');
      this.res.destroy();
      return false;
    }
    this.ctx.metrics.finished('error');
    const wire = this.format.wire;
    if (this.plan.stream) this.res.end(wire === undefined ? MID_STREAM_ERROR + DONE : wire.streamError(MID_STREAM_MESSAGE));
    else sendError(this.res, 500, 'Simulated engine error during generation (injected fault).');
    return false;
  }
}
