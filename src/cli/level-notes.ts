/**
 * Lines printed under the results table for what the table cannot hold: the
 * first failure of each failing level, in the server's own words (so "8 of 8
 * failed" comes with the reason), and each level's client-side retries (a
 * request resent on a fresh connection after its reused keep-alive socket
 * closed: ours, not the server's, and never hidden), and how an open loop's
 * schedule was kept: offered and sent rates, how late sends left (each request's
 * actual send minus its scheduled one), waits for a capped slot, prompt tokens
 * the server found cached; a closed loop's TTFT in its initial burst (the first C
 * sends, all at once) apart from the steady state after it, which the table's
 * percentiles mix; and who sent a split level (threads, workers) with each one's
 * own self-check (busy share, loop delay, send lateness) and verdict; in a run over
 * several LoRA adapters, each adapter's figures per level; the requests the workload
 * gave up on purpose, beside the server's tokens and queue; a level bounded by time,
 * its window (ramp, last send and end, in flight at its end). Server text is sanitised.
 */
import { type LevelResult, cancelledNote, sanitizeForTerminal } from '../core/index.js';

const label = (l: LevelResult) => sanitizeForTerminal(l.load?.label ?? `concurrency ${l.concurrency}`);

type Share = NonNullable<LevelResult['shares']>[number];
const p99 = (x: { p99: number } | null | undefined) => (x ? `${x.p99.toFixed(1)} ms` : '—');

/** A share's own self-check figures: busy share, loop delay and send lateness (p99). */
const selfCheck = (s: Share) =>
  ` (busy ${s.clientCpuPct == null ? '—' : `${s.clientCpuPct.toFixed(0)} %`}, loop delay ${p99(s.loopDelayMs)}, send lateness ${p99(s.sendLatenessMs)})`;

/** Note lines, or none when every level succeeded without a retry. */
export function levelNotes(levels: readonly LevelResult[]): string[] {
  const failures = levels.flatMap((l) => {
    const first = l.failureExamples[0];
    return l.failed > 0 && first !== undefined ? [`  ${label(l)}: ${sanitizeForTerminal(first)}`] : [];
  });
  const retries = levels.flatMap((l) => {
    const n = l.clientRetries ?? 0;
    return n > 0
      ? [
          `  ${label(l)}: ${n} request${n === 1 ? '' : 's'} resent once on a fresh connection after the reused keep-alive socket closed before any response byte (a client-side retry, not a server failure)`,
        ]
      : [];
  });
  const cancelled = levels.flatMap((l) => {
    const note = cancelledNote(l);
    return note === null ? [] : [`  ${label(l)}: ${note}`];
  });
  const open = levels.flatMap((l) => {
    const load = l.load;
    if (!load || load.kind === 'concurrency') return [];
    const rate = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)} req/s`);
    const lag =
      load.scheduleLagMs === null
        ? ''
        : ` · send lateness p50 ${load.scheduleLagMs.p50.toFixed(2)} ms, p99 ${load.scheduleLagMs.p99.toFixed(2)} ms, max ${load.scheduleLagMs.max.toFixed(2)} ms`;
    const waited = load.waitedForSlot > 0 ? ` · ${load.waitedForSlot} waited for a slot (the cap bound)` : '';
    const cached = l.cachedPromptTokens?.mean == null ? '' : ` · cached prompt tokens mean ${l.cachedPromptTokens.mean.toFixed(0)}`;
    return [`  ${label(l)}: offered ${rate(load.offeredRps)}, sent ${rate(load.achievedRps)}, peak ${load.peakInFlight} in flight${lag}${waited}${cached}`];
  });
  const limits = levels.flatMap((l) => (l.rateLimit === undefined && l.retries === undefined ? [] : [`  ${label(l)}: ${rateLimitNote(l)}`]));
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const burst = levels.flatMap((l) => {
    const b = l.ttftSplitMs?.burst;
    const st = l.ttftSplitMs?.steady;
    if ((l.load && l.load.kind !== 'concurrency') || l.concurrency < 2 || !b || !st) return [];
    return [
      `  ${label(l)}: burst p50 ${ms(b.p50)}, p99 ${ms(b.p99)} (the first ${l.concurrency} sends, at once) · steady p50 ${ms(st.p50)}, p99 ${ms(st.p99)}`,
    ];
  });
  const clients = levels.flatMap((l) =>
    l.shares && l.shares.length > 0
      ? [
          `  ${label(l)}: ${l.shares.map((s) => `${sanitizeForTerminal(s.label)}: ${s.requests} ${s.requests === 1 ? 'request' : 'requests'}${selfCheck(s)} ${s.lost ? `LOST (${sanitizeForTerminal(s.lost)})` : s.bound ? 'client-bound' : 'ok'}`).join(' · ')}`,
        ]
      : [],
  );
  const adapters = adapterNotes(levels);
  const timed = levels.flatMap((l) => (l.window ? [`  ${label(l)}: ${windowNote(l.window, l.requests, l.concurrency)}`] : []));
  return [
    ...(adapters.length > 0 ? ['', "LoRA adapters (each request's model drawn by weight; their figures add up to the level's):", ...adapters] : []),
    ...(timed.length > 0 ? ['', "Levels bounded by time (s after each level's start):", ...timed] : []),
    ...(burst.length > 0 ? ['', 'TTFT of the initial burst and of the steady state after it:', ...burst] : []),
    ...(clients.length > 0 ? ['', 'Clients (each judged on its own):', ...clients] : []),
    ...(open.length > 0 ? ['', 'Open-loop schedule:', ...open] : []),
    ...(failures.length > 0 ? ['', 'First failure of each failing level:', ...failures] : []),
    ...(retries.length > 0 ? ['', 'Client-side retries:', ...retries] : []),
    ...(cancelled.length > 0
      ? ['', 'Cancelled on purpose (neither success nor failure, in no latency or throughput figure), beside the server:', ...cancelled]
      : []),
    ...(limits.length > 0
      ? ['', "Provider's rate limits and retries (429, 529, 503 with Retry-After; latency counts from each request's first attempt):", ...limits]
      : []),
  ];
}

/** One line per adapter of each level run over several: requests, failures, throughput, TTFT and TPOT. */
function adapterNotes(levels: readonly LevelResult[]): string[] {
  const ms = (x: number | undefined) => (x === undefined ? '—' : `${x.toFixed(1)} ms`);
  return levels.flatMap((l) =>
    (l.adapters ?? []).map(
      (a) =>
        `  ${label(l)} · ${sanitizeForTerminal(a.name)}: ${a.requests} request${a.requests === 1 ? '' : 's'}, ${a.failed} failed, ${a.throughputTokS.toFixed(1)} tok/s, TTFT p50 ${ms(a.ttftMs?.p50)} p99 ${ms(a.ttftMs?.p99)}, TPOT p50 ${ms(a.tpotMs?.p50)} p95 ${ms(a.tpotMs?.p95)}`,
    ),
  );
}

/** A timed level's window in one line: what it sent and when, the ramp kept out, what was in flight at its end. */
function windowNote(w: NonNullable<LevelResult['window']>, requests: number, c: number): string {
  const s = (x: number | null) => (x === null ? '—' : `${(x / 1000).toFixed(2)} s`);
  const ramp =
    w.rampUpS > 0 ? ` after a ${w.rampUpS} s ramp (${w.rampRequests} requests kept out; all ${c} streams in flight at ${s(w.fullConcurrencyMs)})` : '';
  const ended = w.endedBy === 'request-limit' ? ' · ENDED EARLY: a stream sent its share of the requests a level may hold' : '';
  return `${requests} measured in ${w.durationS} s${ramp} · last send ${s(w.lastSendMs)}, last end ${s(w.lastEndMs)} · ${w.inFlightAtEnd} in flight at the end${ended}`;
}

/** What the provider's headers said, the pace, the 429s and the retries of one level, in one line. */
function rateLimitNote(l: LevelResult): string {
  const rl = l.rateLimit;
  const h = rl?.headers ?? null;
  const n = (x: number | null) => (x === null ? '—' : String(x));
  const s = (x: number | null) => (x === null ? '—' : `${(x / 1000).toFixed(1)} s`);
  const parts: string[] = [];
  if (h !== null) {
    if (h.limitRequests !== null || h.remainingRequestsMin !== null)
      parts.push(
        `requests limit ${n(h.limitRequests)}/min, remaining least ${n(h.remainingRequestsMin)} last ${n(h.remainingRequestsLast)}, reset ${s(h.resetRequestsMs)}`,
      );
    if (h.limitTokens !== null || h.remainingTokensMin !== null)
      parts.push(
        `tokens limit ${n(h.limitTokens)}/min, remaining least ${n(h.remainingTokensMin)} last ${n(h.remainingTokensLast)}, reset ${s(h.resetTokensMs)}`,
      );
  }
  if (rl?.pace) {
    const budget = [rl.pace.rpm === null ? null : `${rl.pace.rpm} requests/min`, rl.pace.tpm === null ? null : `${rl.pace.tpm} tokens/min`].filter(
      (x) => x !== null,
    );
    parts.push(
      `paced to ${budget.length > 0 ? budget.join(' and ') : 'no limit yet stated'} (${rl.pace.source === 'flag' ? '--rate-limit' : 'from the headers'})`,
    );
  }
  if ((rl?.answered429 ?? 0) > 0) parts.push(`${rl?.answered429} answered 429`);
  const r = l.retries;
  if (r !== undefined) {
    const statuses = Object.entries(r.statuses)
      .map(([k, v]) => `${v}× ${k}`)
      .join(', ');
    parts.push(
      `${r.attempts} retr${r.attempts === 1 ? 'y' : 'ies'} of ${r.requests} request${r.requests === 1 ? '' : 's'} (${statuses}), ${(r.waitMs / 1000).toFixed(1)} s waited`,
    );
  }
  if (rl?.limited === true) parts.push(`${rl.reason ?? ''}: no capacity is read from this level`);
  return parts.join(' · ');
}
