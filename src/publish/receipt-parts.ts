/**
 * What every kind's receipt says the same way: the checks of the pair, its
 * id, title, dates and workload, each configuration's line (identity, method,
 * engine, dates, hashes), the server's own account of itself, a figure's
 * value in every run, and the frame around what a kind states its own way
 * (KindParts). The kinds' builders (text-kind.ts, pooling-kind.ts) share it,
 * so a receipt reads alike on every page whatever its kind.
 */
import { canonicalJson, type SweepResult } from '../core/index.js';
import type { ConfigurationKey, Fact } from './fact.js';
import type { ReceiptInput, ReceiptOutcome, ReceiptResult } from './receipt-kind.js';
import { type Configuration, type FactSet, RECEIPT_VERSION, type Receipt, SIGNED_FACT_SET } from './receipt-schema.js';
import { runSignaturesOf } from './standing.js';
import { type CheckedRun, type PairRun, checkRunPair, workloadPart } from './run-pair.js';

export const day = (iso: string): string => iso.slice(0, 10);

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'receipt'
  );
}

/** The server's account in words, each line only what the server said. */
export function accountLines(a: SweepResult['serverAccount']): string[] {
  if (a === undefined) return [];
  return [
    ...a.models.map(
      (m) =>
        `model ${m.id}${m.maxModelLen === null ? '' : `, max_model_len ${m.maxModelLen}`}${m.ownedBy === null ? '' : `, owned by ${m.ownedBy}`} (its model list)`,
    ),
    ...(a.version === null ? [] : [`version ${a.version} (its version route)`]),
    ...(a.props === null
      ? []
      : [
          `model file ${a.props.modelFile ?? 'not named'}${a.props.contextTokens === null ? '' : `, context ${a.props.contextTokens}`}${a.props.build === null ? '' : `, build ${a.props.build}`} (its props route)`,
        ]),
    ...(a.server === null ? [] : [`server header ${a.server}`]),
    ...(a.simulator === null
      ? []
      : [
          `the goodput simulator ${a.simulator.version ?? ''} playing ${a.simulator.dialect ?? 'an engine'}, configuration sha256:${a.simulator.configSha256} (its simulator configuration route)`,
        ]),
  ];
}

/** What a configuration line reads of a run, text or pooling. */
type ConfigurationRun = CheckedRun<
  PairRun & { run: { engine?: { name: string; version: string | null } | null; toolVersion: string }; serverAccount?: SweepResult['serverAccount'] }
>;

export function configuration(run: ConfigurationRun, method: string): Configuration {
  const { contract, result } = run;
  const e = result.run.engine;
  const engine = e ? `${e.name}${e.version ? ` ${e.version}` : ''}` : null;
  const quant = contract.model.quantization === 'none' ? 'no quantization' : `${contract.model.quantization} quantization`;
  return {
    identity: `${contract.model.precision}, ${quant}, ${engine ?? 'engine not recorded'}`,
    method,
    model: contract.model.name,
    engine,
    measuredAt: day(result.run.startedAt),
    contractHash: run.contractHash,
    workloadHash: run.workloadHash,
    toolVersion: result.run.toolVersion,
    serverAccount: accountLines(result.serverAccount),
  };
}

/** Both runs checked as a pair after the method and the kind's own problems (`own`), or every problem. */
export function checkedPair<R extends ReceiptResult>(
  input: ReceiptInput<R>,
  own: readonly string[] = [],
): { ok: true; runs: Record<ConfigurationKey, CheckedRun<R>> } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (input.method.trim() === '') problems.push('--method: state the optimization method of the optimized configuration');
  problems.push(...own);
  const pair = checkRunPair<R>(input.baseline, input.optimized);
  if (!pair.ok) problems.push(...pair.problems);
  if (!pair.ok || problems.length > 0) return { ok: false, problems };
  return { ok: true, runs: { baseline: pair.baseline, optimized: pair.optimized } };
}

/** What a kind's receipt states its own way, in the receipt's order; receiptOf frames it. */
export interface KindParts {
  /** Stated only above the first fact set (receipt-schema.ts), so a receipt of set 1 reads as it always did. */
  factSet?: FactSet;
  simulated: boolean;
  /** Beside the modality: a text run's media inputs, or a pooling run's endpoint. */
  tag: Pick<Receipt, 'inputs' | 'modality'>;
  costText: string;
  facts: Fact[];
  curves: Receipt['curves'];
  headlines: Receipt['headlines'];
  charts: Receipt['charts'];
  quality: Receipt['quality'];
  limitations: string[];
  /** The two servers' configurations side by side (configuration-part.ts); absent when neither run recorded one. */
  serverConfiguration?: Receipt['serverConfiguration'];
}

/** The receipt of a checked pair: the frame every kind shares around the kind's own parts. */
export function receiptOf<R extends ReceiptResult>(input: ReceiptInput<R>, runs: Record<ConfigurationKey, CheckedRun<R>>, parts: KindParts): ReceiptOutcome {
  const model = runs.baseline.contract.model.name;
  const hardware = runs.baseline.contract.hardware.label;
  const pair = [runs.baseline, runs.optimized];
  const measuredAt = pair
    .map((r) => day(r.result.run.startedAt))
    .sort()
    .at(-1) as string;
  const title = input.title?.trim() || `${model} on ${hardware}: ${input.method.trim()}`;
  const asOf = pair
    .map((r) => r.contract.hardware.priceAsOf)
    .filter((d): d is string => d !== undefined)
    .sort();
  const receipt: Receipt = {
    receiptVersion: RECEIPT_VERSION,
    ...(parts.factSet === undefined || parts.factSet === 1 ? {} : { factSetVersion: parts.factSet }),
    // The date is never cut off a long title: a re-measurement is a new receipt, not a collision.
    id: `${slug(title)}-${measuredAt}`,
    title,
    model,
    hardware,
    measuredAt,
    simulated: parts.simulated,
    ...parts.tag,
    configurations: {
      baseline: configuration(runs.baseline, input.baselineMethod?.trim() || 'baseline as deployed, no optimization'),
      optimized: configuration(runs.optimized, input.method.trim()),
    },
    ...(parts.serverConfiguration === undefined ? {} : { serverConfiguration: parts.serverConfiguration }),
    workload: { hash: runs.baseline.workloadHash, lines: Object.entries(workloadPart(runs.baseline.contract)).map(([k, v]) => `${k}: ${canonicalJson(v)}`) },
    costBasis: { text: parts.costText, priceAsOf: asOf.at(-1) ?? null },
    facts: parts.facts,
    curves: parts.curves,
    headlines: parts.headlines,
    charts: parts.charts,
    quality: parts.quality,
    limitations: parts.limitations,
    generator: input.generator,
    // Set 3 and later state who signed; the results alone sign nothing, so every key is null until a signature file names one (receipt-file.ts).
    ...(parts.factSet !== undefined && parts.factSet >= SIGNED_FACT_SET
      ? {
          signatures: runSignaturesOf(
            input,
            input.quality === null ? null : 'quality' in input.optimized && input.optimized.quality !== undefined ? 'in-run' : 'file',
          ),
        }
      : {}),
  };
  return { ok: true, receipt };
}

/** Each figure of `keys` against its baseline, the optimized configuration's first; those in `alone` have none. */
export const headlinesOf = (keys: readonly string[], alone: readonly string[] = []): Receipt['headlines'] =>
  keys.map((k) => ({ factId: `optimized.${k}`, baselineFactId: alone.includes(k) ? null : `baseline.${k}` }));

/** A bar chart of each figure by configuration, titled by `title`. */
export const barCharts = (keys: readonly string[], title: (key: string) => string): Receipt['charts'] =>
  keys.map((key) => ({ id: slug(key.replace(/[A-Z]/g, (c) => `-${c}`)), title: title(key), factIds: [`baseline.${key}`, `optimized.${key}`] }));

/** A configuration's facts from its first run, each fact-table figure (`table`; every fact when `everyFact`) with its value in every run when the contract ran more than once. */
export function withRuns<T>(
  cfg: ConfigurationKey,
  first: readonly Fact[],
  runs: readonly T[],
  factsOf: (run: T) => Fact[],
  table: readonly string[],
  everyFact = false,
): Fact[] {
  if (runs.length < 2) return [...first];
  const each = runs.map((r) => new Map(factsOf(r).map((f) => [f.id, f.value])));
  const ids = new Set(everyFact ? first.map((f) => f.id) : table.map((k) => `${cfg}.${k}`));
  return first.map((f) => (ids.has(f.id) ? { ...f, runs: each.map((m) => m.get(f.id) ?? null) } : f));
}
