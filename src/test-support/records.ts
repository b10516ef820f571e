/** Builds RequestRecord literals for tests: instants given in ms, stored in ns. */
import type { RequestRecord } from '../core/index.js';

export interface RecordSpec {
  sendMs?: number;
  targetSendMs?: number;
  /** Arrival of each token-carrying chunk, ms. */
  chunksMs?: number[];
  /** Tokens per chunk when the server reported them (makes the record exact). */
  chunkTokens?: number[];
  endMs?: number | null;
  outputTokens?: number;
  firstAnswerMs?: number | null;
  concurrency?: number;
  warmup?: boolean;
  outcome?: RequestRecord['outcome'];
  reasoningTokens?: number | null;
  promptTokens?: number | null;
}

const ms = (x: number) => x * 1e6;

export function rec(s: RecordSpec = {}): RequestRecord {
  const chunksMs = s.chunksMs ?? [];
  const exact = s.chunkTokens !== undefined;
  const chunkTokens = s.chunkTokens ?? chunksMs.map(() => 1);
  const sendMs = s.sendMs ?? 0;
  const lastChunk = chunksMs[chunksMs.length - 1];
  return {
    seq: 0,
    concurrency: s.concurrency ?? 1,
    warmup: s.warmup ?? false,
    targetSendNs: ms(s.targetSendMs ?? sendMs),
    sendNs: ms(sendMs),
    headersNs: ms(sendMs + 1),
    firstTokenNs: chunksMs[0] === undefined ? null : ms(chunksMs[0]),
    firstAnswerNs: s.firstAnswerMs === undefined ? (chunksMs[0] === undefined ? null : ms(chunksMs[0])) : s.firstAnswerMs === null ? null : ms(s.firstAnswerMs),
    chunkNs: chunksMs.map(ms),
    chunkTokens,
    chunkTokensExact: exact,
    endNs: s.endMs === null ? null : ms(s.endMs ?? (lastChunk ?? sendMs) + 1),
    outputTokens: s.outputTokens ?? chunkTokens.reduce((a, b) => a + b, 0),
    outputTokenSource: 'usage',
    reasoningTokens: s.reasoningTokens ?? null,
    reasoningChunks: 0,
    promptTokens: s.promptTokens ?? 10,
    cachedPromptTokens: null,
    finishReason: 'length',
    httpStatus: 200,
    outcome: s.outcome ?? { kind: 'ok' },
  };
}
