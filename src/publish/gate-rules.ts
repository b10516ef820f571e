/**
 * The provenance gate's rules over one receipt. Each rule returns violations
 * that name the number (fact id, label, configuration) and the rule, so a
 * refusal says exactly what to fix.
 */
import { CONFIGURATION_KEYS, FACT_TABLE_ROWS, type Fact } from './fact.js';
import type { Receipt } from './receipt-schema.js';
import { sameDefinition } from './view-number.js';

export type GateRule =
  | 'provenance' | 'derived-sources' | 'workload-reconstructable' | 'statistic-named' | 'configuration-labelled'
  | 'same-definition' | 'same-rows' | 'one-family-per-chart' | 'quality-evaluator' | 'no-internal-identifiers' | 'price-cited' | 'no-prices-on-charts';

export interface Violation { rule: GateRule; number: string; message: string }

const who = (r: Receipt, f: Fact) => `${r.id}: ${f.id} (${f.label}, ${f.configuration})`;
const v = (rule: GateRule, number: string, message: string): Violation => ({ rule, number, message: `${number}: ${message} [rule: ${rule}]` });

function provenance(r: Receipt): Violation[] {
  return r.facts.flatMap((f) => {
    if (f.provenance === 'not recorded' && f.value !== null) return [v('provenance', who(r, f), 'has a value but is flagged "not recorded"; only measured or derived numbers ship')];
    if (f.provenance !== 'not recorded' && f.value === null) return [v('provenance', who(r, f), `is flagged "${f.provenance}" but has no value; flag it "not recorded"`)];
    if (f.provenance === 'recorded' && f.metric !== 'hourlyRate') return [v('provenance', who(r, f), 'is an input, not a measurement; only the hourly rate of the cost basis may be "recorded"')];
    return [];
  });
}

function derivedSources(r: Receipt): Violation[] {
  const byId = new Map(r.facts.map((f) => [f.id, f]));
  return r.facts.filter((f) => f.provenance === 'derived').flatMap((f) => {
    const from = f.derivedFrom ?? [];
    if (from.length === 0) return [v('derived-sources', who(r, f), 'is derived but names no source')];
    const bad = from.filter((id) => !['measured', 'recorded', 'derived'].includes(byId.get(id)?.provenance ?? 'missing'));
    return bad.length > 0 ? [v('derived-sources', who(r, f), `is derived from ${bad.join(', ')}, which ${bad.length > 1 ? 'are' : 'is'} not a measured number of this receipt`)] : [];
  });
}

function workload(r: Receipt): Violation[] {
  const out: Violation[] = [];
  for (const k of ['baseline', 'optimized'] as const) {
    const c = r.configurations[k];
    if (!c.contractHash || !c.workloadHash) out.push(v('workload-reconstructable', `${r.id}: every ${k} number`, 'has no verified contract hash and workload hash, so its workload cannot be reconstructed'));
  }
  const { baseline: b, optimized: o } = r.configurations;
  if (b.workloadHash && o.workloadHash && (b.workloadHash !== o.workloadHash || r.workload.hash !== b.workloadHash)) {
    out.push(v('workload-reconstructable', `${r.id}: every number`, 'the baseline and optimized workloads differ; both sides must run the same load test'));
  }
  return out;
}

const BARE = /^(avg|average|mean|median|value|n\/a|-)?$/i;
function statisticNamed(r: Receipt): Violation[] {
  return r.facts.filter((f) => BARE.test(f.statistic.trim())).map((f) => v('statistic-named', who(r, f), `has no named statistic ("${f.statistic}"); say which, e.g. "p50 at concurrency 1"`));
}

function configurationLabelled(r: Receipt): Violation[] {
  return r.facts.filter((f) => r.configurations[f.configuration].identity.trim() === '' || r.configurations[f.configuration].method.trim() === '')
    .map((f) => v('configuration-labelled', who(r, f), `belongs to the ${f.configuration} configuration, which has no identity or method stated`));
}

function sameDefinitionRule(r: Receipt): Violation[] {
  const byId = new Map(r.facts.map((f) => [f.id, f]));
  return r.headlines.flatMap((h) => {
    const to = byId.get(h.factId);
    const from = h.baselineFactId === null ? null : byId.get(h.baselineFactId);
    if (!to) return [v('same-definition', `${r.id}: headline ${h.factId}`, 'names a number the receipt does not have')];
    if (from === undefined) return [v('same-definition', who(r, to), `is compared with ${h.baselineFactId}, which the receipt does not have`)];
    if (from === null) return [];
    if (!sameDefinition(from, to) || from.configuration !== 'baseline') {
      return [v('same-definition', who(r, to), `is claimed as a change against ${from.id} (${from.label}, ${from.statistic}), a differently defined statistic; a change is stated only between one definition on both sides`)];
    }
    return [];
  });
}

/** Both fact tables have the same rows: a figure missing on one side is "not recorded", never absent. */
function sameRows(r: Receipt): Violation[] {
  const ids = new Set(r.facts.map((f) => f.id));
  return FACT_TABLE_ROWS.flatMap((key) => CONFIGURATION_KEYS.filter((cfg) => !ids.has(`${cfg}.${key}`))
    .map((cfg) => v('same-rows', `${r.id}: ${cfg}.${key}`, 'is missing; both fact tables carry every row, a missing value as "not recorded"')));
}

function chartFamily(r: Receipt): Violation[] {
  const byId = new Map(r.facts.map((f) => [f.id, f]));
  return r.charts.flatMap((c) => {
    const out: Violation[] = [];
    const missing = c.factIds.filter((id) => !byId.has(id));
    for (const id of missing) {
      out.push(id.startsWith('prices/')
        ? v('no-prices-on-charts', `${r.id}: chart ${c.id}: ${id}`, 'is a list price; list prices live in their own tables, never on a measured chart')
        : v('one-family-per-chart', `${r.id}: chart ${c.id}: ${id}`, 'is not a number of this receipt'));
    }
    const facts = c.factIds.flatMap((id) => byId.get(id) ?? []);
    const first = facts[0];
    for (const f of facts.slice(1)) {
      if (first && !sameDefinition(first, f)) {
        out.push(v('one-family-per-chart', who(r, f), `shares chart ${c.id} with ${first.id}, but is defined differently (${f.label}, ${f.statistic}, ${f.unit} vs ${first.label}, ${first.statistic}, ${first.unit}); a chart holds one statistic on one scale`));
      }
    }
    return out;
  });
}

function qualityEvaluator(r: Receipt): Violation[] {
  const q = r.facts.find((f) => f.metric === 'quality');
  if (!q) return [v('quality-evaluator', `${r.id}: quality`, 'is missing; a receipt without a score states "not recorded"')];
  if (q.value !== null && (!r.quality || r.quality.evaluator.trim() === '' || r.quality.scaleNote.trim() === '')) {
    return [v('quality-evaluator', who(r, q), 'is a quality score without its evaluator and scale note')];
  }
  return [];
}

export const RECEIPT_RULES: ReadonlyArray<(r: Receipt) => Violation[]> = [
  provenance, derivedSources, workload, statisticNamed, configurationLabelled, sameDefinitionRule, sameRows, chartFamily, qualityEvaluator,
];

export { v as violation };
