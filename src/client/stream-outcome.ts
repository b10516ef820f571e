/**
 * Decides how a 2xx stream ended and assembles the final {@link RequestRecord}
 * from a {@link StreamRecorder} and the handler's instants.
 */
import type { Outcome, RequestRecord } from '../core/index.js';
import type { StreamRecorder } from './stream-recorder.js';
import type { RequestMeta } from './types.js';

/**
 * Outcome of a 2xx stream that ended at its end event (`[DONE]`, Ollama's `done: true`) or at a clean close:
 * - an error event or unparseable event anywhere → `stream-error` (even if `[DONE]` follows);
 * - a finish reason, or `[DONE]` after some text → `ok`;
 * - otherwise (no finish reason, and no `[DONE]` or no text at all) → `truncated`.
 */
export function streamOutcome(rec: StreamRecorder, contentType: string, expectedType = 'text/event-stream'): Outcome {
  if (rec.streamError !== null) return { kind: 'stream-error', message: rec.streamError };
  if (rec.finishReason !== null || (rec.doneNs !== null && rec.firstTokenNs !== null)) return { kind: 'ok' };
  if (rec.doneNs !== null) {
    return { kind: 'truncated', message: 'the stream sent [DONE] without any generated text or finish_reason' };
  }
  const type = contentType === '' ? 'none' : contentType;
  const subtype = expectedType.split('/')[1] ?? expectedType;
  const hint = contentType.toLowerCase().includes(subtype) ? '' : ` (response Content-Type: ${type}, expected ${expectedType})`;
  return {
    kind: 'truncated',
    message: `the stream closed without [DONE] or a finish_reason after ${rec.events} data events${hint}`,
  };
}

/** Instants and status the handler owns. All instants in ns of the client clock. */
export interface Ending {
  sendNs: number;
  /** Last request byte written; null when it never was. */
  writtenNs: number | null;
  /** The send's breakdown when tracing (GOODPUT_SEND_TRACE), else null. */
  trace: { builtNs: number; writeStartNs: number } | null;
  headersNs: number | null;
  endNs: number;
  httpStatus: number | null;
  outcome: Outcome;
}

/** The raw record: named instants and counts, nothing derived. */
export function toRecord(rec: StreamRecorder, meta: RequestMeta, end: Ending): RequestRecord {
  const output = rec.outputTokens();
  return {
    seq: meta.seq,
    concurrency: meta.concurrency,
    warmup: meta.warmup,
    targetSendNs: meta.targetSendNs,
    sendNs: end.sendNs,
    headersNs: end.headersNs,
    firstTokenNs: rec.firstTokenNs,
    firstAnswerNs: rec.firstAnswerNs,
    chunkNs: rec.chunkNs,
    chunkTokens: rec.chunkTokens,
    chunkTokensExact: rec.chunkTokensExact(),
    endNs: end.endNs,
    outputTokens: output.tokens,
    outputTokenSource: output.source,
    reasoningTokens: rec.reasoningTokens,
    reasoningChunks: rec.reasoningChunks,
    promptTokens: rec.promptTokens,
    cachedPromptTokens: rec.cachedPromptTokens,
    finishReason: rec.finishReason,
    httpStatus: end.httpStatus,
    outcome: end.outcome,
    ...(meta.session ? { session: meta.session } : {}),
    ...(meta.requestId === undefined ? {} : { requestId: meta.requestId }),
    ...(meta.trace === undefined ? {} : { traceId: meta.trace.traceId, spanId: meta.trace.spanId }),
    ...(end.writtenNs === null ? {} : { writtenNs: end.writtenNs }),
    ...(end.trace === null ? {} : { sendTrace: end.trace }),
  };
}
