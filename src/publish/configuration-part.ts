/**
 * What a receipt says of the two servers' configurations and of the
 * conditions each side was measured under, from its evidence alone: the
 * settings each server reported side by side, a baseline configured below its
 * engine's documented default (core's SERVER_SETTINGS) flagged as handicapped,
 * and, as limitations, every configuration difference in words and every
 * condition that differs between the sides: the round trip to the server (as
 * each kind's records bound it), the days measured, the goodput version and
 * the client machine. One section for every kind of receipt (text, embeddings,
 * rerank): it reads only what every kind's result carries. Runs recorded
 * before configurations were (no `serverAccount.configuration` on either side)
 * add nothing, so their receipts recompute as they always did.
 */
import { runsOf } from '../contract/index.js';
import { type ServerConfiguration, type SweepResult, fastestHeadersMs, handicapsOf, settingRows } from '../core/index.js';
import type { ConfigurationKey } from './fact.js';
import { daysBetween } from './receipt-dates.js';
import type { ServerConfigurationSection } from './receipt-schema.js';
import type { CheckedRun, PairRun } from './run-pair.js';

/** What the section reads of a side's result, whatever its kind. */
export interface ConfiguredRun extends PairRun {
  serverAccount?: { configuration?: ServerConfiguration } | undefined;
  clientMachine?: string | undefined;
  run: PairRun['run'] & { toolVersion: string };
}

/** Sides measured further apart than this many days are a limitation. */
export const APART_DAYS = 7;
/** Round trips differing by more than this many ms, and by more than ROUND_TRIP_RATIO, are a limitation. */
export const ROUND_TRIP_MS = 1;
export const ROUND_TRIP_RATIO = 1.5;

const UNRECORDED: ServerConfiguration = {
  engine: null,
  source: null,
  settings: [],
  note: 'not recorded (the run was made before configurations were recorded)',
};

/** Where a side's configuration came from, or why there is none (the simulator's route in words: a page names no two-segment path). */
const sourceText = (c: ServerConfiguration): string =>
  c.source === null
    ? (c.note ?? 'not reported')
    : c.engine === 'goodput-sim'
      ? "the goodput simulator's configuration route"
      : `${c.source}${c.engine === null ? '' : ` (${c.engine})`}`;

const ms = (x: number) => x.toFixed(1);

/** A text run's round trip: its first run's fastest response headers after their send. */
export const headersRoundTripMs = (r: SweepResult): number | null => fastestHeadersMs(runsOf(r)[0]?.records ?? []);

/** The conditions that differ between the sides, each one sentence; `roundTripMs` is the round trip a side's records show (null: none). */
function conditionLimits<R extends ConfiguredRun>(b: R, o: R, roundTripMs: (r: R) => number | null): string[] {
  const out: string[] = [];
  const [bRtt, oRtt] = [roundTripMs(b), roundTripMs(o)];
  if (bRtt !== null && oRtt !== null && Math.abs(bRtt - oRtt) > ROUND_TRIP_MS && Math.max(bRtt, oRtt) > ROUND_TRIP_RATIO * Math.min(bRtt, oRtt))
    out.push(
      `The round trip to the servers differs: the fastest answer's headers came ${ms(bRtt)} ms after its send on the baseline and ${ms(oRtt)} ms on the optimized run, so every latency differs by about that much besides the method.`,
    );
  const [bDay, oDay] = [b.run.startedAt.slice(0, 10), o.run.startedAt.slice(0, 10)];
  const apart = Math.abs(daysBetween(bDay, oDay));
  if (apart > APART_DAYS)
    out.push(
      `The sides were measured ${apart} days apart (baseline ${bDay}, optimized ${oDay}); the servers, drivers or network may have changed between them.`,
    );
  if (b.run.toolVersion !== o.run.toolVersion)
    out.push(`The sides were measured by different goodput versions (baseline ${b.run.toolVersion}, optimized ${o.run.toolVersion}).`);
  if (b.clientMachine !== undefined && o.clientMachine !== undefined && b.clientMachine !== o.clientMachine)
    out.push(
      `The sides were measured from different client machines (baseline: ${b.clientMachine}; optimized: ${o.clientMachine}); the client's own overhead differs with them.`,
    );
  return out;
}

/**
 * The receipt's configuration section and its limitations; none of either when neither run recorded a configuration.
 * `roundTripMs` is the kind's own bound on a side's round trip (text: its fastest response's headers).
 */
export function configurationPart<R extends ConfiguredRun>(
  runs: Record<ConfigurationKey, CheckedRun<R>>,
  roundTripMs: (r: R) => number | null,
): { section?: ServerConfigurationSection; limitations: string[] } {
  const [bRes, oRes] = [runs.baseline.result, runs.optimized.result];
  const [bAcc, oAcc] = [bRes.serverAccount?.configuration, oRes.serverAccount?.configuration];
  if (bAcc === undefined && oAcc === undefined) return { limitations: [] };
  const [b, o] = [bAcc ?? UNRECORDED, oAcc ?? UNRECORDED];
  const rows = settingRows(b, o);
  const handicaps = handicapsOf(b);
  const limitations = handicaps.map(
    (h) =>
      `${h.text}: the baseline's server reported ${h.doc.name} ${h.value} (${sourceText(b)}), below the default documented in ${h.doc.source}; part of any gain may come from the handicap, not the method.`,
  );
  for (const [key, c] of [
    ['baseline', b],
    ['optimized', o],
  ] as const)
    if (c.source === null) limitations.push(`${key}: the server's configuration is ${c.note ?? 'not reported'}, so differences in it cannot be shown.`);
  const differs = rows.filter((r) => r.differs && r.baseline !== null && r.optimized !== null);
  if (differs.length > 0)
    limitations.push(
      `The two servers were configured differently, as each reported it: ${differs.map((r) => `${r.setting} ${r.baseline} on the baseline, ${r.optimized} optimized`).join('; ')}; the receipt compares these configurations, not the method alone.`,
    );
  limitations.push(...conditionLimits(bRes, oRes, roundTripMs));
  return { section: { sources: { baseline: sourceText(b), optimized: sourceText(o) }, rows, handicaps: handicaps.map((h) => h.text) }, limitations };
}
