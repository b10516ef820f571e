/**
 * The self-host decision, measured on both sides: a self-hosted run costed
 * from its hourly cost at its utilisation, a provider run costed from the
 * price row it recorded and the tokens it actually sent, both per successful
 * million output tokens at the same workload and SLO — and the break-even,
 * the utilisation and the monthly volume above which self-hosting is cheaper.
 * The figures are formatted here once, so the terminal, the JSON, the report
 * and the page show the same text.
 */
import { canonicalJson } from './canonical-json.js';
import { decisionLevel, goodputTokS, providerCost } from './provider-cost.js';
import { type ProviderPrice, priceLine } from './provider-price.js';
import type { LevelResult, SweepResult } from './result-schema.js';

/** What a decision reads of a run: its facts, its levels and its business cost (a compared run on the page has them too). */
export interface DecideRun {
  run: SweepResult['run'];
  levels: readonly LevelResult[];
  businessCost?: SweepResult['businessCost'];
}

/** Hours in the month the volume break-even is given for: 365 × 24 / 12. */
export const HOURS_PER_MONTH = 730;

export interface DecideSide {
  label: string;
  /** The level both sides are compared at: each run's valid level of highest goodput. */
  level: number;
  goodputTokS: number;
  /** Share of the level's requests that met every SLO. */
  successShare: number | null;
  ttftMs: { p50: number; p95: number; p99: number } | null;
  tpotMs: { p50: number; p95: number } | null;
  costPer1MSuccessfulUsd: number | null;
}

export interface Decision {
  workload: string;
  slo: string;
  self: DecideSide & { hourlyUsd: number; utilisation: number };
  provider: DecideSide & {
    price: ProviderPrice;
    spendUsd: number;
    successfulOutputTokens: number;
    tokens: { input: number; cachedInput: number; output: number };
  };
  breakEven: { utilisation: number | null; monthlyOutputTokens: number | null; verdict: string };
  /** Every figure as shown, in order: [what, self, provider]. */
  rows: Array<[string, string, string]>;
  assumptions: string[];
}

/** Two runs `decide` cannot set side by side, and why, naming the field. */
export class DecideRefused extends Error {}

/** What the runs sent, as one canonical text: two runs of different workloads are not one decision. */
function workloadOf(r: DecideRun): Record<string, unknown> {
  const run = r.run;
  return {
    endpoint: run.endpoint,
    promptTokens: run.promptTokens,
    outputTokens: run.outputTokens,
    forceLength: run.forceLength,
    thinking: run.thinking,
    tools: run.tools?.sha256 ?? null,
    responseSchema: run.responseSchema?.sha256 ?? null,
    images: r.levels[0]?.images ?? null,
    audio: r.levels[0]?.audio ?? null,
  };
}

function sideOf(label: string, l: LevelResult): Omit<DecideSide, 'costPer1MSuccessfulUsd'> {
  return {
    label,
    level: l.concurrency,
    goodputTokS: goodputTokS(l),
    successShare: l.goodput?.share ?? (l.requests > 0 ? l.succeeded / l.requests : null),
    ttftMs: l.ttftMs,
    tpotMs: l.tpotMs,
  };
}

const usd = (x: number | null): string => (x === null ? 'no figure' : `$${x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toPrecision(3)}`);
const ms = (x: number | undefined): string => (x === undefined ? '—' : `${x.toFixed(1)} ms`);
const tokens = (x: number): string =>
  x >= 1e9 ? `${(x / 1e9).toFixed(2)} billion` : x >= 1e6 ? `${(x / 1e6).toFixed(1)} million` : Math.round(x).toLocaleString('en-US');

/** The self-hosted side's hourly cost and utilisation: the contract's business cost when it has one, else `--hourly-cost` at full use. */
function selfCostInputs(r: DecideRun): { hourlyUsd: number; utilisation: number; said: string[] } {
  const b = r.businessCost;
  if (b !== undefined) {
    const u = b.inputs.find((i) => i.name.startsWith('utilisation'));
    const lines = b.inputs.filter((i) => i.unit === '$/h').map((i) => `${i.name} $${i.value}/h as of ${i.asOf}`);
    return { hourlyUsd: b.hourlyTotalUsd, utilisation: u?.value ?? 1, said: [...lines, ...(u ? [`${u.name} ${u.value} as of ${u.asOf}`] : [])] };
  }
  if (r.run.hourlyCostUsd === null)
    throw new DecideRefused('SELF: run.hourlyCostUsd is not set: a self-hosted run needs its hourly cost (--hourly-cost, or a contract hardware price)');
  return {
    hourlyUsd: r.run.hourlyCostUsd,
    utilisation: 1,
    said: [`hourly cost $${r.run.hourlyCostUsd}/h (--hourly-cost)`, 'utilisation 1 (none declared: full use assumed)'],
  };
}

/** The decision between a self-hosted run and a provider run; throws DecideRefused naming why two runs are not one decision. */
export function decide(self: { label: string; result: DecideRun }, provider: { label: string; result: DecideRun }): Decision {
  const price = provider.result.run.providerPrice;
  if (price === undefined)
    throw new DecideRefused('PROVIDER: run.providerPrice is not set: run it with --provider-price provider/model so the price it was sent at is recorded');
  if (self.result.run.providerPrice !== undefined) throw new DecideRefused('SELF: run.providerPrice is set: the first run is the self-hosted one');
  const [wa, wb] = [canonicalJson(workloadOf(self.result)), canonicalJson(workloadOf(provider.result))];
  if (wa !== wb) {
    const a = workloadOf(self.result);
    const b = workloadOf(provider.result);
    const field = Object.keys(a).find((k) => canonicalJson(a[k] ?? null) !== canonicalJson(b[k] ?? null)) ?? 'workload';
    throw new DecideRefused(
      `the runs sent different workloads: ${field} is ${canonicalJson(a[field] ?? null)} in SELF, ${canonicalJson(b[field] ?? null)} in PROVIDER`,
    );
  }
  const [sa, sb] = [canonicalJson(self.result.run.slo ?? null), canonicalJson(provider.result.run.slo ?? null)];
  if (sa !== sb) throw new DecideRefused(`the runs were judged by different SLOs: run.slo is ${sa} in SELF, ${sb} in PROVIDER`);
  const [ls, lp] = [decisionLevel(self.result.levels), decisionLevel(provider.result.levels)];
  if (ls === null) throw new DecideRefused('SELF: no valid level delivered goodput, so there is nothing to cost');
  if (lp === null) throw new DecideRefused('PROVIDER: no valid level delivered goodput, so there is nothing to cost');

  const s = selfCostInputs(self.result);
  const selfSide = sideOf(self.label, ls);
  const selfCost = (s.hourlyUsd / (selfSide.goodputTokS * s.utilisation * 3600)) * 1e6;
  // Recomputed from the levels at the recorded price: a stated figure is never taken.
  const pc = providerCost(provider.result.levels, provider.result.run.promptTokens, price) as NonNullable<ReturnType<typeof providerCost>>;
  const [billed, spend, successful, provCost] = [pc.tokens, pc.spendUsd, pc.successfulOutputTokens, pc.costPer1MSuccessfulUsd];
  const inputFrom = pc.inputFrom === 'server' ? 'as the server counted them, usage.prompt_tokens' : 'as sent, the server reported no count';

  // Self-hosting costs the same whatever it serves: cheaper once its cost at utilisation u falls under the provider's.
  const fullUse = (s.hourlyUsd / (selfSide.goodputTokS * 3600)) * 1e6;
  const beU = provCost === null || provCost === 0 ? null : fullUse / provCost;
  const beVolume = provCost === null || provCost === 0 ? null : ((s.hourlyUsd * HOURS_PER_MONTH) / provCost) * 1e6;
  const capacity = selfSide.goodputTokS * 3600 * HOURS_PER_MONTH;
  let verdict: string;
  if (beU === null || beVolume === null) verdict = 'no break-even: the provider side has no cost figure';
  else if (beU > 1)
    verdict = `self-hosting is dearer even at full use: it breaks even at ${tokens(beVolume)} output tokens a month, above the ${tokens(capacity)} one server serves at this SLO`;
  else
    verdict = `self-hosting is cheaper above utilisation ${beU.toFixed(3)}, that is above ${tokens(beVolume)} successful output tokens a month (one server serves at most ${tokens(capacity)})`;

  const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);
  const rows: Array<[string, string, string]> = [
    ['level compared', `${ls.concurrency}`, `${lp.concurrency}`],
    ['goodput (successful output tok/s)', selfSide.goodputTokS.toFixed(1), goodputTokS(lp).toFixed(1)],
    ['successful requests (meeting every SLO)', pct(selfSide.successShare), pct(sideOf(provider.label, lp).successShare)],
    [
      'TTFT p50 / p95 / p99',
      `${ms(ls.ttftMs?.p50)} / ${ms(ls.ttftMs?.p95)} / ${ms(ls.ttftMs?.p99)}`,
      `${ms(lp.ttftMs?.p50)} / ${ms(lp.ttftMs?.p95)} / ${ms(lp.ttftMs?.p99)}`,
    ],
    ['TPOT p50 / p95', `${ms(ls.tpotMs?.p50)} / ${ms(ls.tpotMs?.p95)}`, `${ms(lp.tpotMs?.p50)} / ${ms(lp.tpotMs?.p95)}`],
    ['cost per successful 1M output tokens', usd(selfCost), usd(provCost)],
  ];
  const assumptions = [
    `SLO: ${sa === 'null' ? 'none on either run, so every successful request counts as meeting it' : `the same on both runs, ${sa}`}`,
    `SELF: ${s.said.join('; ')}; cost = hourly / (goodput tok/s × utilisation × 3600) × 1e6`,
    `PROVIDER: ${priceLine(price)}`,
    `PROVIDER: spend $${spend.toFixed(6)} for ${lp.succeeded} successful requests at level ${lp.concurrency}: ${tokens(billed.input)} input tokens (${inputFrom}), ${tokens(billed.cachedInput)} of them cached as the server reported, ${tokens(billed.output)} output tokens; failed requests and warm-ups are not billed`,
    `PROVIDER: cost = spend / ${tokens(successful)} output tokens of requests that met every SLO × 1e6`,
    `break-even: self-hosted cost at full use ${usd(fullUse)} ÷ provider ${usd(provCost)}; a month is ${HOURS_PER_MONTH} hours of the hourly cost, whatever is served`,
  ];
  return {
    workload: wa,
    slo: sa,
    self: { ...selfSide, costPer1MSuccessfulUsd: selfCost, hourlyUsd: s.hourlyUsd, utilisation: s.utilisation },
    provider: {
      ...sideOf(provider.label, lp),
      costPer1MSuccessfulUsd: provCost,
      price,
      spendUsd: spend,
      successfulOutputTokens: successful,
      tokens: billed,
    },
    breakEven: { utilisation: beU, monthlyOutputTokens: beVolume, verdict },
    rows,
    assumptions,
  };
}

/** The decision as plain lines (terminal and Markdown share it): the side-by-side table, the break-even, every assumption. */
export function decisionLines(d: Decision): string[] {
  const w0 = Math.max(...d.rows.map((r) => r[0].length), 4);
  const w1 = Math.max(...d.rows.map((r) => r[1].length), d.self.label.length);
  return [
    `${''.padEnd(w0)}  ${d.self.label.padEnd(w1)}  ${d.provider.label}`,
    ...d.rows.map(([a, b, c]) => `${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`),
    '',
    `break-even: ${d.breakEven.verdict}`,
    'assumptions:',
    ...d.assumptions.map((a) => `  - ${a}`),
  ];
}
