/**
 * The provenance gate's rules over one receipt. Each rule returns violations
 * that name the number (fact id, label, configuration) and the rule, so a
 * refusal says exactly what to fix.
 */
import { DERIVATIONS, agrees } from './derivations.js';
import { CONFIGURATION_KEYS, type Fact } from './fact.js';
import { kindOfReceipt } from './receipt-kinds.js';
import { workloadRule } from './gate-workload.js';
import type { Receipt } from './receipt-schema.js';
import { sameDefinition } from './view-number.js';
import { type GateRule, type Violation, violation as v, who } from './violation.js';

export type { GateRule, Violation };

/** The inputs stated with a run that a receipt may carry as "recorded": what cost and per-GPU figures derive from. */
const RECORDED_INPUTS: ReadonlySet<string> = new Set(['hourlyRate', 'gpuCount']);

function provenance(r: Receipt): Violation[] {
  return r.facts.flatMap((f) => {
    if (f.provenance === 'not recorded' && f.value !== null)
      return [v('provenance', who(r, f), 'has a value but is flagged "not recorded"; only measured or derived numbers ship')];
    if (f.provenance !== 'not recorded' && f.value === null)
      return [v('provenance', who(r, f), `is flagged "${f.provenance}" but has no value; flag it "not recorded"`)];
    if (f.provenance === 'recorded' && !RECORDED_INPUTS.has(f.metric))
      return [
        v(
          'provenance',
          who(r, f),
          'is an input, not a measurement; only the hourly rate of the cost basis and the GPU count of the hardware label may be "recorded"',
        ),
      ];
    return [];
  });
}

function derivedSources(r: Receipt): Violation[] {
  const byId = new Map(r.facts.map((f) => [f.id, f]));
  return r.facts
    .filter((f) => f.provenance === 'derived')
    .flatMap((f) => {
      const from = f.derivedFrom ?? [];
      if (from.length === 0) return [v('derived-sources', who(r, f), 'is derived but names no source')];
      const bad = from.filter((id) => !['measured', 'recorded', 'derived'].includes(byId.get(id)?.provenance ?? 'missing'));
      if (bad.length > 0)
        return [
          v('derived-sources', who(r, f), `is derived from ${bad.join(', ')}, which ${bad.length > 1 ? 'are' : 'is'} not a measured number of this receipt`),
        ];
      return recomputed(
        r,
        f,
        from.map((id) => byId.get(id) as Fact),
      );
    });
}

/** A derived number must equal its formula (DERIVATIONS) over the sources it names, within 1e-6 relative. */
function recomputed(r: Receipt, f: Fact, sources: readonly Fact[]): Violation[] {
  const d = DERIVATIONS[f.metric];
  if (d === undefined)
    return [v('derived-sources', who(r, f), `is derived, but ${f.metric} has no known derivation, so it cannot be checked against its sources`)];
  const matches = d.sources.map((metric) => sources.filter((s) => s.metric === metric && s.configuration === f.configuration));
  const lacking = d.sources.filter((_, i) => matches[i]?.length !== 1);
  if (lacking.length > 0) {
    return [
      v(
        'derived-sources',
        who(r, f),
        `must be derived from exactly one ${lacking.join(' and one ')} of the ${f.configuration} configuration; it names ${sources.map((s) => s.id).join(', ')}`,
      ),
    ];
  }
  const expected = d.compute(matches.map((m) => m[0]?.value ?? Number.NaN));
  if (f.value !== null && !agrees(expected, f.value)) {
    return [
      v(
        'derived-sources',
        who(r, f),
        `is ${f.value}, but its sources (${sources.map((s) => `${s.id} = ${s.value}`).join(', ')}) give ${expected}; a derived number must recompute from them`,
      ),
    ];
  }
  return [];
}

/** Fact ids name one number each: the page, the gate and dataset.json all look numbers up by id. */
function uniqueIds(r: Receipt): Violation[] {
  const seen = new Map<string, number>();
  for (const f of r.facts) seen.set(f.id, (seen.get(f.id) ?? 0) + 1);
  return [...seen]
    .filter(([, n]) => n > 1)
    .map(([id, n]) => v('unique-ids', `${r.id}: ${id}`, `is the id of ${n} facts; each number of a receipt has its own id`));
}

const BARE = /^(avg|average|mean|median|value|n\/a|-)?$/i;
function statisticNamed(r: Receipt): Violation[] {
  return r.facts
    .filter((f) => BARE.test(f.statistic.trim()))
    .map((f) => v('statistic-named', who(r, f), `has no named statistic ("${f.statistic}"); say which, e.g. "p50 at concurrency 1"`));
}

function configurationLabelled(r: Receipt): Violation[] {
  return r.facts
    .filter((f) => r.configurations[f.configuration].identity.trim() === '' || r.configurations[f.configuration].method.trim() === '')
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
      return [
        v(
          'same-definition',
          who(r, to),
          `is claimed as a change against ${from.id} (${from.label}, ${from.statistic}), a differently defined statistic; a change is stated only between one definition on both sides`,
        ),
      ];
    }
    return [];
  });
}

/** Both fact tables have the same rows: a figure missing on one side is "not recorded", never absent. */
function sameRows(r: Receipt): Violation[] {
  const ids = new Set(r.facts.map((f) => f.id));
  return kindOfReceipt(r)
    .page.factRows(r)
    .map((row) => row.key)
    .flatMap((key) =>
      CONFIGURATION_KEYS.filter((cfg) => !ids.has(`${cfg}.${key}`)).map((cfg) =>
        v('same-rows', `${r.id}: ${cfg}.${key}`, 'is missing; both fact tables carry every row, a missing value as "not recorded"'),
      ),
    );
}

function chartFamily(r: Receipt): Violation[] {
  const byId = new Map(r.facts.map((f) => [f.id, f]));
  return r.charts.flatMap((c) => {
    const out: Violation[] = [];
    const missing = c.factIds.filter((id) => !byId.has(id));
    for (const id of missing) {
      out.push(
        id.startsWith('prices/')
          ? v('no-prices-on-charts', `${r.id}: chart ${c.id}: ${id}`, 'is a list price; list prices live in their own tables, never on a measured chart')
          : v('one-family-per-chart', `${r.id}: chart ${c.id}: ${id}`, 'is not a number of this receipt'),
      );
    }
    const facts = c.factIds.flatMap((id) => byId.get(id) ?? []);
    const first = facts[0];
    for (const f of facts.slice(1)) {
      if (first && !sameDefinition(first, f)) {
        out.push(
          v(
            'one-family-per-chart',
            who(r, f),
            `shares chart ${c.id} with ${first.id}, but is defined differently (${f.label}, ${f.statistic}, ${f.unit} vs ${first.label}, ${first.statistic}, ${first.unit}); a chart holds one statistic on one scale`,
          ),
        );
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
  uniqueIds,
  provenance,
  derivedSources,
  workloadRule,
  statisticNamed,
  configurationLabelled,
  sameDefinitionRule,
  sameRows,
  chartFamily,
  qualityEvaluator,
];

export { v as violation };
