/**
 * The results table as data: one row per level (finished, running or
 * queued), cells in the seed's column order, an invalid level's averages
 * marked dimmed with the reason, and Failed emphasized when non-zero.
 */
import { type LevelResult, HELD_SHARE, cancelledNote, describeInFlight, heldShort, levelValue, outputAsked, serverAddedLabel } from '../../core/index.js';
import { num } from './format.js';
import { AVERAGE_METRICS, METRICS, type MetricKey, TABLE_METRICS } from './metrics.js';

export interface TableCell {
  metric: MetricKey;
  text: string;
  /** An average of an invalid level: shown greyed, with "invalid" for screen readers. */
  dimmed: boolean;
  /** A non-zero Failed count: the first thing the eye should meet. */
  alarm: boolean;
}

export interface TableRow {
  concurrency: number;
  state: 'done' | 'running' | 'queued';
  cells: TableCell[];
  invalid: boolean;
  clientBound: boolean;
  /** What the Status cell says: "ok", "invalid: 3 of 64 failed (timeout 3)", "running… 12 of 32", "queued". */
  status: string;
  /** A finished level's status as a short badge with its reason on demand; null while it is to come. */
  badge: LevelBadge | null;
}

export interface LiveLevel {
  concurrency: number;
  done: number;
  requests: number;
  failed: number;
}

/** The header cells after "Concurrency", in order. */
export const TABLE_HEADERS: readonly string[] = TABLE_METRICS.map((k) => METRICS[k].header);

function failures(l: LevelResult): string {
  const kinds = Object.entries(l.failures)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `${l.failed} of ${l.requests} failed${kinds ? ` (${kinds})` : ''}`;
}

/** A level's status as a short badge ("ok", "client-bound", "failed 3", "invalid") and its full reason, shown on demand. */
export interface LevelBadge {
  text: string;
  tone: 'ok' | 'warn' | 'bad';
  reason: string | null;
}

export function levelBadge(l: LevelResult): LevelBadge {
  if (l.invalid) return { text: l.failed > 0 ? `failed ${l.failed}` : 'invalid', tone: 'bad', reason: statusText(l) };
  // The provider's limit set the pace: no capacity is read from the level.
  if (l.rateLimit?.limited === true) return { text: 'rate-limited', tone: 'warn', reason: statusText(l) };
  if (l.clientBound.bound) return { text: 'client-bound', tone: 'warn', reason: statusText(l) };
  // The client kept fewer requests open than asked: the level's figures are of less load than its label says.
  if (heldShort(l.inFlight)) return { text: 'not held', tone: 'warn', reason: statusText(l) };
  return { text: 'ok', tone: 'ok', reason: l.retries === undefined && l.cancelled === undefined ? null : statusText(l) };
}

/** "3 retries of 2 requests, 2.9 s waited": retries after 429, 529 or 503, never hidden; null without any. */
function retriesText(l: LevelResult): string | null {
  const r = l.retries;
  if (r === undefined) return null;
  return `${r.attempts} ${r.attempts === 1 ? 'retry' : 'retries'} of ${r.requests} ${r.requests === 1 ? 'request' : 'requests'}, ${(r.waitMs / 1000).toFixed(1)} s waited (latency from each first attempt)`;
}

export function statusText(l: LevelResult): string {
  const retries = retriesText(l);
  // Requests given up on purpose are neither: said beside whatever the level's status is.
  const plus = [retries, cancelledNote(l)].map((x) => (x === null ? '' : `; ${x}`)).join('');
  if (l.invalid) return `invalid: ${failures(l)}${plus}`;
  if (l.rateLimit?.limited === true) return `${l.rateLimit.reason ?? "limited by the provider's rate limit"}${plus}`;
  if (l.clientBound.bound) return `client-bound: ${l.clientBound.reason ?? 'our client was the bottleneck'}${plus}`;
  if (l.inFlight !== undefined && heldShort(l.inFlight))
    return `not held: our client kept ${describeInFlight(l.inFlight)}, below ${Math.round(HELD_SHARE * 100)} % of the concurrency asked${plus}`;
  return `ok${plus}`;
}

function doneRow(l: LevelResult): TableRow {
  const cells = TABLE_METRICS.map((k) => {
    const m = METRICS[k];
    const text = k === 'gpuMem' && !l.gpuMemMiB.available ? 'n/a' : num(m.value(l), m.digits);
    return { metric: k, text, dimmed: l.invalid && AVERAGE_METRICS.has(k), alarm: k === 'failed' && l.failed > 0 };
  });
  return {
    concurrency: levelValue(l),
    state: 'done',
    cells,
    invalid: l.invalid,
    clientBound: l.clientBound.bound,
    status: statusText(l),
    badge: levelBadge(l),
  };
}

function pendingRow(concurrency: number, live: LiveLevel | null): TableRow {
  const cells = TABLE_METRICS.map((k) => ({
    metric: k,
    text: k === 'failed' && live ? String(live.failed) : '—',
    dimmed: false,
    alarm: k === 'failed' && (live?.failed ?? 0) > 0,
  }));
  const status = live ? `running… ${live.done} of ${live.requests} requests` : 'queued';
  return { concurrency, state: live ? 'running' : 'queued', cells, invalid: false, clientBound: false, status, badge: null };
}

/**
 * Rows for finished levels, then (while a run is live) the level in flight and the queued ones.
 * @param planned every level the run will measure, when it is still running.
 */
export function tableRows(levels: readonly LevelResult[], planned: readonly number[] = [], live: LiveLevel | null = null): TableRow[] {
  // Rows are the levels' own values on their axis (a replay's speeds), never the peak an open loop reached.
  const rows = [...levels].sort((a, b) => levelValue(a) - levelValue(b)).map(doneRow);
  const done = new Set(levels.map(levelValue));
  for (const c of [...new Set(planned)].sort((a, b) => a - b)) {
    if (!done.has(c)) rows.push(pendingRow(c, live?.concurrency === c ? live : null));
  }
  return rows;
}

/** One sentence naming every level with failures, for above the table; null when there are none. */
export function failureSummary(levels: readonly LevelResult[]): string | null {
  const bad = levels.filter((l) => l.failed > 0);
  if (bad.length === 0) return null;
  const example = (l: LevelResult) => (l.failureExamples[0] ? ` — e.g. ${l.failureExamples[0].replace(/[.\s]+$/, '')}` : '');
  const list = bad.map((l) => `concurrency ${l.concurrency}: ${failures(l)}${example(l)}`).join('; ');
  return `${bad.length === 1 ? '1 level has' : `${bad.length} levels have`} failed requests, so ${bad.length === 1 ? 'its' : 'their'} averages are invalid and left out of the peak: ${list}.`;
}

/** How the levels' prompt lengths were counted, and what the server added, when they say; null otherwise. */
function counted(levels: readonly LevelResult[]): string | null {
  const p = levels.find((l) => l.promptTokens.countedBy !== undefined)?.promptTokens;
  if (p?.countedBy === undefined) return null;
  const added = levels.flatMap((l) => (typeof l.promptTokens.templateTokens === 'number' ? [l.promptTokens.templateTokens] : []));
  const extra =
    added.length > 0 ? `; the server added ${num(added.reduce((a, x) => a + x, 0) / added.length, 1)} tokens of its own (${serverAddedLabel(levels)})` : '';
  return `${p.countedBy}${extra}`;
}

/** "256-token synthetic prompts (exact: …)", with how they were counted and what the server added, when the levels say. */
function promptWords(tokens: number, levels: readonly LevelResult[]): string {
  const how = counted(levels);
  return `${tokens}-token synthetic prompts${how === null ? '' : ` (${how})`}`;
}

/** How a replay's or a session run's prompt lengths were counted, and what the server added, when the levels say; '' otherwise. */
function countedClause(levels: readonly LevelResult[]): string {
  const how = counted(levels);
  return how === null ? '' : ` (prompt lengths ${how})`;
}

/** The table's caption: workload and statistics (a replay's and a session run's levels say what they were). */
export function tableCaption(
  w: { promptTokens: number; outputTokens: number; thinking: boolean; requestsPerLevel: number | 'auto'; forceLength?: boolean },
  levels: readonly LevelResult[] = [],
): string {
  const requests = w.requestsPerLevel === 'auto' ? 'max(8, 4 × concurrency)' : String(w.requestsPerLevel);
  const workload = levels.some((l) => l.load?.kind === 'trace')
    ? `Per level, a replay of a recorded trace: each request with its own prompt and output lengths${countedClause(levels)}, sent at its recorded time (at the level's speed), thinking ${w.thinking ? 'on' : 'off'}, no warm-up. Concurrency is the most requests in flight at once.`
    : levels.some((l) => l.sessions)
      ? `Per level, multi-turn sessions: each turn sent with the conversation so far, the model's answers included${countedClause(levels)}, thinking ${w.thinking ? 'on' : 'off'}, no warm-up. Concurrency is the most requests in flight at once.`
      : `Per concurrency level: ${promptWords(w.promptTokens, levels)}, ${outputAsked(w.outputTokens, w.forceLength ?? true)}, thinking ${w.thinking ? 'on' : 'off'}, ${requests} measured requests after a warm-up.`;
  return (
    `${workload} Throughput is output tokens ÷ level duration; per-request is the mean of each request's rate; ` +
    'TTFT, TPOT and e2e are percentiles of all successful requests. All measured.'
  );
}
