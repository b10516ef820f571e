/**
 * Result files with evidence for receipt, publish and verify tests: each
 * level's raw records are built from a few literals (TTFT, TPOT, output
 * length), and the level summaries and cards are computed from them with the
 * code `goodput run` uses, so the evidence checks pass on the untouched file
 * and any hand edit is caught.
 */
import { type Contract, combineRepeats, contractHash, contractSchema, recordsSha256 } from '../contract/index.js';
import { DEFAULT_CLIENT_BUDGET_MS, type RawRecord, type RequestRecord, SCHEMA_VERSION, type SweepResult, buildCards } from '../core/index.js';
import { levelResult } from '../runner/index.js';

export interface EvidenceLevel {
  c: number;
  ttftMs: number;
  tpotMs: number;
  failed?: number;
}

export interface EvidenceSide {
  quantization?: string;
  model?: string;
  revision?: string;
  label?: string;
  hourly?: number;
  priceAsOf?: string;
  outputTokens?: number;
  endpoint?: 'chat' | 'completions';
  engine?: string;
  engineVersion?: string;
  startedAt?: string;
  levels: EvidenceLevel[];
  fingerprint?: string;
  qualityFloor?: number;
  /** Runs of the contract; each later run is slower by `spread` (a fraction) per run. */
  repeats?: number;
  spread?: number;
  /** What the server said about itself (absent: the run recorded no account). */
  account?: SweepResult['serverAccount'];
}

const ns = (ms: number) => Math.round(ms * 1e6);

export function evidenceContract(s: EvidenceSide): Contract {
  return contractSchema.parse({
    version: 1,
    server: { url: 'http://127.0.0.1:8000', endpoint: s.endpoint ?? 'chat' },
    model: {
      name: s.model ?? 'demo-model',
      revision: s.revision ?? 'r1',
      tokenizer: { kind: 'server' },
      precision: 'bf16',
      quantization: s.quantization ?? 'none',
    },
    workload: { prompts: { kind: 'synthetic', tokens: 32 }, outputTokens: s.outputTokens ?? 16, requestsPerLevel: 8, warmup: 1 },
    load: { levels: s.levels.map((l) => l.c) },
    slo: { ttftMs: { p: 95, max: 100 } },
    hardware: { label: s.label ?? 'Test GPU 24GB', gpuHourlyUsd: s.hourly ?? 2, priceAsOf: s.priceAsOf ?? '2026-06-01' },
    ...(s.qualityFloor === undefined ? {} : { quality: { metric: 'goodput-quality-v1', floor: s.qualityFloor } }),
    ...((s.repeats ?? 1) > 1 ? { repeats: s.repeats } : {}),
  });
}

/** Records of one closed-loop level: requests in rounds of c, each TTFT then one token per TPOT. */
function levelRecords(l: EvidenceLevel, tokens: number, slow: number): RawRecord[] {
  const ttft = l.ttftMs * slow;
  const tpot = l.tpotMs * slow;
  const e2e = ttft + tpot * (tokens - 1) + 1;
  const out: RawRecord[] = [];
  for (let seq = 0; seq < 9; seq++) {
    const warmup = seq === 0;
    const round = warmup ? 0 : Math.floor((seq - 1) / l.c) + 1;
    const send = round * (e2e + 2) + (seq % 3) * 0.25;
    const failed = !warmup && seq <= (l.failed ?? 0);
    const chunks = failed ? [] : Array.from({ length: tokens }, (_, i) => send + ttft + i * tpot + (i % 2) * 0.01);
    const rec: RequestRecord = {
      seq,
      concurrency: l.c,
      warmup,
      targetSendNs: ns(warmup || seq <= l.c ? round * (e2e + 2) : send),
      sendNs: ns(send),
      headersNs: ns(send + 1),
      firstTokenNs: failed ? null : ns(chunks[0] as number),
      firstAnswerNs: failed ? null : ns(chunks[0] as number),
      chunkNs: chunks.map(ns),
      chunkTokens: chunks.map(() => 1),
      chunkTokensExact: true,
      endNs: failed ? null : ns(send + e2e),
      outputTokens: failed ? 0 : tokens,
      outputTokenSource: 'usage',
      reasoningTokens: null,
      reasoningChunks: 0,
      promptTokens: 32,
      cachedPromptTokens: null,
      finishReason: failed ? null : 'length',
      httpStatus: failed ? 503 : 200,
      outcome: failed ? { kind: 'http-error', status: 503, message: 'overloaded' } : { kind: 'ok' },
      requestId: `req-${l.c}-${seq}`,
    };
    out.push({ ...rec, cell: 0 });
  }
  return out;
}

function oneRun(s: EvidenceSide, c: Contract, k: number): SweepResult {
  const tokens = s.outputTokens ?? 16;
  const slow = 1 + (s.spread ?? 0) * k;
  const records: RawRecord[] = [];
  const levels = s.levels.map((l) => {
    const recs = levelRecords(l, tokens, slow);
    records.push(...recs);
    return levelResult({
      load: {
        kind: 'concurrency',
        level: l.c,
        label: `${l.c} streams`,
        offeredRps: null,
        achievedRps: null,
        peakInFlight: l.c,
        waitedForSlot: 0,
        scheduleLagMs: null,
      },
      slo: c.slo,
      capOf: () => tokens,
      records: recs,
      targetOutputTokens: tokens,
      forceLength: true,
      loopDelayMs: null,
      clientCpuPct: null,
      clientBudgetMs: DEFAULT_CLIENT_BUDGET_MS,
      gpu: { available: false, source: 'not available', reason: 'no GPU source' },
    });
  });
  const hourly = c.hardware.gpuHourlyUsd ?? null;
  const startedAt = new Date(Date.parse(s.startedAt ?? '2026-06-02T10:00:00.000Z') + k * 600_000).toISOString();
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      url: 'http://127.0.0.1:8000',
      model: c.model.name,
      serverFingerprint: s.fingerprint ?? 'f'.repeat(64),
      engine: { name: s.engine ?? 'vllm', version: s.engineVersion ?? '0.9.1' },
      endpoint: c.server.endpoint as 'chat' | 'completions',
      outputTokens: tokens,
      forceLength: true,
      promptTokens: 32,
      thinking: 'off',
      temperature: 0,
      seed: 42,
      levelsRequested: s.levels.map((l) => l.c),
      levelsOrder: s.levels.map((l) => l.c),
      slo: c.slo,
      requestsPerLevel: 8,
      warmupPerLevel: 1,
      hourlyCostUsd: hourly,
      baselineRateUsdPer1M: null,
      gpuLabel: c.hardware.label,
      command: 'goodput run test.yaml --url http://127.0.0.1:8000',
      startedAt,
      endedAt: startedAt,
      status: 'complete',
      stopReason: null,
      toolVersion: '0.1.0',
      ...((s.repeats ?? 1) > 1 ? { repeat: { index: k + 1, of: s.repeats as number, set: '0123456789abcdef' } } : {}),
    },
    warnings: [],
    levels,
    cards: buildCards({ levels, hourlyCostUsd: hourly, baselineRateUsdPer1M: null, gpuLabel: c.hardware.label }),
    records,
    recordsSha256: recordsSha256(records),
    contract: c as unknown as Record<string, unknown>,
    contractHash: contractHash(c),
    tokenizer: { kind: 'server', exact: true, label: 'server /tokenize', sha256: null },
    ...(s.account === undefined ? {} : { serverAccount: s.account }),
  };
}

/** A result file as `goodput run [--repeats N] --json` writes it. */
export function evidenceResult(s: EvidenceSide): SweepResult {
  const c = evidenceContract(s);
  return combineRepeats(Array.from({ length: s.repeats ?? 1 }, (_, k) => oneRun(s, c, k)));
}

/** Baseline: TTFT 40 ms, TPOT 10 ms; optimized: TTFT 30 ms, TPOT 5 ms, at concurrency 1, 2 and 4. */
export function evidencePair(over: { baseline?: Partial<EvidenceSide>; optimized?: Partial<EvidenceSide> } = {}): {
  baseline: SweepResult;
  optimized: SweepResult;
} {
  return {
    baseline: evidenceResult({
      levels: [
        { c: 1, ttftMs: 40, tpotMs: 10 },
        { c: 2, ttftMs: 45, tpotMs: 11 },
        { c: 4, ttftMs: 60, tpotMs: 14 },
      ],
      fingerprint: 'a'.repeat(64),
      ...over.baseline,
    }),
    optimized: evidenceResult({
      quantization: 'fp8',
      levels: [
        { c: 1, ttftMs: 30, tpotMs: 5 },
        { c: 2, ttftMs: 32, tpotMs: 5.5 },
        { c: 4, ttftMs: 40, tpotMs: 7 },
      ],
      startedAt: '2026-06-03T09:00:00.000Z',
      fingerprint: 'b'.repeat(64),
      ...over.optimized,
    }),
  };
}
