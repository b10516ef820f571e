/**
 * The metric registry of the page: for each figure its label, unit, the
 * statistic it is and which direction is better. Table headers, chart axes,
 * subtitles and compare deltas all read it, so labels cannot drift.
 */
export type Direction = 'higher' | 'lower';

/**
 * The part of a level the metrics read. A LevelResult is one; a receipt
 * rebuilds just this much from its published facts, so both draw the same charts.
 */
export interface MetricLevel {
  throughputTokS: number;
  perRequestTokS: { mean: number } | null;
  ttftMs: { p50: number; p95: number } | null;
  tpotMs: { p50: number } | null;
  e2eMs: { p50: number } | null;
  failed: number;
  gpuMemMiB: { available: true; peak: number } | { available: false };
  /** A level sent with tools: the share of judged requests whose calls validated, and time to first tool-call token. */
  toolCalls?: { validRate: number | null; ttftToolMs: { p50: number; p95: number } | null };
  /** A level whose server reported speculative decoding: its acceptance length and rate, and our tokens per chunk. */
  specDecode?: { acceptanceLength: number; acceptanceRate: number | null; client: { tokensPerChunk: number } | null } | undefined;
  /** A level a GPU source read: joules per token over its measured window (null when the energy is not valid). */
  energy?: { joulesPerOutputToken: number | null; joulesPerInputToken: number | null; joulesPerTotalToken: number | null } | undefined;
  /** A disaggregated server's level: each pool's rates over the measured window and the KV moved between them. */
  disagg?: { roles: readonly PoolRates[]; kvTransfer: { levelGbps: number | null; transferGbps: number | null } | null } | undefined;
  /** A fleet's level: each target's throughput over the level's window and its TTFT. */
  targets?: ReadonlyArray<{ throughputTokS: number; ttftMs: { p50: number } | null }> | undefined;
}

/** One pool's rates as a level states them. */
export interface PoolRates {
  role: string;
  promptTokensPerS: number | null;
  promptTokensPerSPerGpu: number | null;
  generatedTokensPerS: number | null;
  generatedTokensPerSPerGpu: number | null;
}

const pool = (l: MetricLevel, role: 'prefill' | 'decode'): PoolRates | undefined => l.disagg?.roles.find((r) => r.role === role);
/** The targets' values of a fleet level, or none. */
const eachTarget = (l: MetricLevel, f: (t: NonNullable<MetricLevel['targets']>[number]) => number | null): number[] =>
  (l.targets ?? []).flatMap((t) => ((v) => (v === null ? [] : [v]))(f(t)));
const extreme = (xs: number[], pick: (...v: number[]) => number): number | null => (xs.length === 0 ? null : pick(...xs));

export interface MetricDef {
  /** Column header, unit included, as the Benchmarks page shows it. */
  header: string;
  /** Axis or fact label without the statistic. */
  label: string;
  unit: string;
  /** The statistic, named beside every value ("p50", "mean of per-request", …). */
  statistic: string;
  /** Which way is better; null when neither is (memory). */
  direction: Direction | null;
  /** The value of a level, or null when it has none. */
  value(l: MetricLevel): number | null;
  /** Decimals shown. */
  digits: number;
}

export const METRICS = {
  throughput: {
    header: 'Throughput tok/s',
    label: 'Throughput',
    unit: 'tok/s',
    statistic: 'output tokens ÷ level duration',
    direction: 'higher',
    digits: 1,
    value: (l) => l.throughputTokS,
  },
  perRequest: {
    header: 'Per-request tok/s',
    label: 'Per-request rate',
    unit: 'tok/s',
    statistic: 'mean of per-request',
    direction: 'higher',
    digits: 1,
    value: (l) => l.perRequestTokS?.mean ?? null,
  },
  ttftP50: { header: 'TTFT p50 (ms)', label: 'TTFT', unit: 'ms', statistic: 'p50', direction: 'lower', digits: 1, value: (l) => l.ttftMs?.p50 ?? null },
  ttftP95: { header: 'TTFT p95 (ms)', label: 'TTFT', unit: 'ms', statistic: 'p95', direction: 'lower', digits: 1, value: (l) => l.ttftMs?.p95 ?? null },
  tpotP50: { header: 'TPOT p50 (ms)', label: 'TPOT', unit: 'ms', statistic: 'p50', direction: 'lower', digits: 2, value: (l) => l.tpotMs?.p50 ?? null },
  e2eP50: { header: 'e2e p50 (ms)', label: 'e2e', unit: 'ms', statistic: 'p50', direction: 'lower', digits: 0, value: (l) => l.e2eMs?.p50 ?? null },
  toolValid: {
    header: 'Valid tool calls (share)',
    label: 'Valid tool calls',
    unit: 'share of judged requests',
    statistic: 'valid ÷ requests that called or had to',
    direction: 'higher',
    digits: 3,
    value: (l) => l.toolCalls?.validRate ?? null,
  },
  toolTtftP50: {
    header: 'Tool-call TTFT p50 (ms)',
    label: 'First tool-call token',
    unit: 'ms',
    statistic: 'p50',
    direction: 'lower',
    digits: 1,
    value: (l) => l.toolCalls?.ttftToolMs?.p50 ?? null,
  },
  toolTtftP95: {
    header: 'Tool-call TTFT p95 (ms)',
    label: 'First tool-call token',
    unit: 'ms',
    statistic: 'p95',
    direction: 'lower',
    digits: 1,
    value: (l) => l.toolCalls?.ttftToolMs?.p95 ?? null,
  },
  acceptanceLength: {
    header: 'Acceptance length (tokens/step)',
    label: 'Acceptance length',
    unit: 'tokens per step',
    statistic: "the server's mean tokens per verification step, the bonus token included",
    direction: 'higher',
    digits: 2,
    value: (l) => l.specDecode?.acceptanceLength ?? null,
  },
  // Falls as the draft budget rises even with the same drafter: no better direction, the length is the headline.
  acceptanceRate: {
    header: 'Acceptance rate',
    label: 'Acceptance rate',
    unit: 'share of draft tokens',
    statistic: "the server's accepted ÷ draft tokens",
    direction: null,
    digits: 3,
    value: (l) => l.specDecode?.acceptanceRate ?? null,
  },
  chunkTokens: {
    header: 'Ours: tokens per chunk',
    label: 'Tokens per streamed chunk',
    unit: 'tokens per chunk',
    statistic: "mean after each request's first chunk",
    direction: null,
    digits: 2,
    value: (l) => l.specDecode?.client?.tokensPerChunk ?? null,
  },
  joulesPerOutputToken: {
    header: 'J/output token',
    label: 'Energy per output token',
    unit: 'J per token',
    statistic: 'GPU joules over the measured window ÷ output tokens',
    direction: 'lower',
    digits: 3,
    value: (l) => l.energy?.joulesPerOutputToken ?? null,
  },
  joulesPerInputToken: {
    header: 'J/input token',
    label: 'Energy per input token',
    unit: 'J per token',
    statistic: 'GPU joules over the measured window ÷ input tokens',
    direction: 'lower',
    digits: 4,
    value: (l) => l.energy?.joulesPerInputToken ?? null,
  },
  joulesPerTotalToken: {
    header: 'J/token',
    label: 'Energy per token',
    unit: 'J per token',
    statistic: 'GPU joules over the measured window ÷ input and output tokens',
    direction: 'lower',
    digits: 4,
    value: (l) => l.energy?.joulesPerTotalToken ?? null,
  },
  prefillTokS: {
    header: 'Prefill pool prompt tok/s',
    label: 'Prefill pool prompt rate',
    unit: 'tok/s',
    statistic: "the prefill pool's prompt tokens ÷ the measured window",
    direction: 'higher',
    digits: 0,
    value: (l) => pool(l, 'prefill')?.promptTokensPerS ?? null,
  },
  prefillTokSPerGpu: {
    header: 'Prefill prompt tok/s per GPU',
    label: 'Prefill pool prompt rate per GPU',
    unit: 'tok/s per GPU',
    statistic: "the prefill pool's prompt rate ÷ its declared GPUs",
    direction: 'higher',
    digits: 0,
    value: (l) => pool(l, 'prefill')?.promptTokensPerSPerGpu ?? null,
  },
  decodeTokS: {
    header: 'Decode pool generated tok/s',
    label: 'Decode pool generation rate',
    unit: 'tok/s',
    statistic: "the decode pool's generated tokens ÷ the measured window",
    direction: 'higher',
    digits: 0,
    value: (l) => pool(l, 'decode')?.generatedTokensPerS ?? null,
  },
  decodeTokSPerGpu: {
    header: 'Decode generated tok/s per GPU',
    label: 'Decode pool generation rate per GPU',
    unit: 'tok/s per GPU',
    statistic: "the decode pool's generation rate ÷ its declared GPUs",
    direction: 'higher',
    digits: 0,
    value: (l) => pool(l, 'decode')?.generatedTokensPerSPerGpu ?? null,
  },
  // How fast KV moved says what the link carried, not which configuration is better.
  kvGbps: {
    header: 'KV Gbit/s over the level',
    label: 'KV transfer rate over the level',
    unit: 'Gbit/s',
    statistic: 'KV bits moved between the pools ÷ the measured window',
    direction: null,
    digits: 3,
    value: (l) => l.disagg?.kvTransfer?.levelGbps ?? null,
  },
  kvTransferGbps: {
    header: 'KV Gbit/s while transferring',
    label: 'KV transfer rate while transferring',
    unit: 'Gbit/s',
    statistic: "KV bits moved ÷ the transfers' summed time",
    direction: null,
    digits: 3,
    value: (l) => l.disagg?.kvTransfer?.transferGbps ?? null,
  },
  targetTokSMin: {
    header: 'Least-served target tok/s',
    label: "Least-served target's throughput",
    unit: 'tok/s',
    statistic: "the lowest of the targets' output tokens ÷ the level's measured window",
    direction: 'higher',
    digits: 1,
    value: (l) =>
      extreme(
        eachTarget(l, (t) => t.throughputTokS),
        Math.min,
      ),
  },
  targetTokSMax: {
    header: 'Most-served target tok/s',
    label: "Most-served target's throughput",
    unit: 'tok/s',
    statistic: "the highest of the targets' output tokens ÷ the level's measured window",
    direction: null,
    digits: 1,
    value: (l) =>
      extreme(
        eachTarget(l, (t) => t.throughputTokS),
        Math.max,
      ),
  },
  targetTtftP50Max: {
    header: 'Slowest target TTFT p50 (ms)',
    label: "Slowest target's TTFT",
    unit: 'ms',
    statistic: "the highest of the targets' TTFT p50",
    direction: 'lower',
    digits: 1,
    value: (l) =>
      extreme(
        eachTarget(l, (t) => t.ttftMs?.p50 ?? null),
        Math.max,
      ),
  },
  failed: { header: 'Failed', label: 'Failed requests', unit: 'requests', statistic: 'count', direction: 'lower', digits: 0, value: (l) => l.failed },
  gpuMem: {
    header: 'GPU mem (MiB)',
    label: 'GPU memory',
    unit: 'MiB',
    statistic: 'peak',
    direction: null,
    digits: 0,
    value: (l) => (l.gpuMemMiB.available ? l.gpuMemMiB.peak : null),
  },
} as const satisfies Record<string, MetricDef>;

export type MetricKey = keyof typeof METRICS;

/** The results table's columns after Concurrency, in the seed's order. */
export const TABLE_METRICS: readonly MetricKey[] = ['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'tpotP50', 'e2eP50', 'failed', 'gpuMem'];

/** Figures that are averages of the level's requests: greyed out when the level is invalid. */
export const AVERAGE_METRICS: ReadonlySet<MetricKey> = new Set(['throughput', 'perRequest', 'ttftP50', 'ttftP95', 'tpotP50', 'e2eP50']);

/** "tok/s · higher is better". */
export function directionText(m: MetricDef): string {
  return m.direction === null ? m.unit : `${m.unit} · ${m.direction} is better`;
}

/** A figure that is not one level's value: a peak, a cost, a score. Receipts and the share image read these. */
export interface FigureDef {
  label: string;
  unit: string;
  statistic: string;
  direction: Direction | null;
  digits: number;
}

export const FIGURES = {
  peakThroughput: { label: 'Peak throughput', unit: 'tok/s', statistic: 'peak over the valid levels tested', direction: 'higher', digits: 1 },
  singleStream: { label: 'Single-stream rate', unit: 'tok/s', statistic: 'mean of per-request at concurrency 1', direction: 'higher', digits: 1 },
  ttftSingle: { label: 'TTFT', unit: 'ms', statistic: 'p50 at concurrency 1', direction: 'lower', digits: 1 },
  tpotSingle: { label: 'TPOT', unit: 'ms', statistic: 'p50 at concurrency 1', direction: 'lower', digits: 2 },
  e2eSingle: { label: 'Request latency (e2e)', unit: 'ms', statistic: 'p50 at concurrency 1', direction: 'lower', digits: 0 },
  failedTotal: { label: 'Failed requests', unit: 'requests', statistic: 'count over all levels', direction: 'lower', digits: 0 },
  hourlyRate: { label: 'GPU hourly rate', unit: 'USD/h', statistic: 'rate recorded with the run', direction: null, digits: 2 },
  costPer1M: { label: 'Cost per 1M output tokens', unit: 'USD', statistic: 'hourly rate at peak throughput', direction: 'lower', digits: 2 },
  goodput: {
    label: 'Goodput',
    unit: 'req/s',
    statistic: 'peak over the valid levels tested of requests meeting every SLO, per second',
    direction: 'higher',
    digits: 2,
  },
  sloAttainment: {
    label: 'SLO attainment',
    unit: 'share of requests',
    statistic: 'share meeting every SLO at the goodput peak',
    direction: 'higher',
    digits: 3,
  },
  quality: { label: 'Quality score', unit: 'score (0–1)', statistic: 'composite against the baseline', direction: 'higher', digits: 4 },
} as const satisfies Record<string, FigureDef>;

export type FigureKey = keyof typeof FIGURES;
