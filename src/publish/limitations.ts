/**
 * A receipt's limitations, generated from its facts and runs so they cannot be
 * forgotten: what was not a GPU, which levels do not count, what was not
 * recorded, how prompt lengths were counted, and that each side ran once.
 */
import type { ConfigurationKey, Fact } from './fact.js';
import type { CheckedRun } from './run-pair.js';

function runLimits(cfg: ConfigurationKey, run: CheckedRun): string[] {
  const r = run.result;
  const out: string[] = [];
  const engine = `${r.run.engine?.name ?? ''} ${r.run.engine?.version ?? ''}`;
  if (/goodput-sim|simulat/i.test(engine) || /simgpu/i.test(run.contract.hardware.label)) {
    out.push(`${cfg}: measured against the goodput simulator, not a real GPU; its figures show the method, not what any hardware achieves.`);
  }
  const invalid = r.levels.filter((l) => l.invalid).map((l) => l.concurrency);
  if (invalid.length > 0) out.push(`${cfg}: invalid level(s) at concurrency ${invalid.join(', ')} (failed requests) are excluded from peaks.`);
  const bound = r.levels.filter((l) => l.clientBound.bound).map((l) => l.concurrency);
  if (bound.length > 0) out.push(`${cfg}: level(s) at concurrency ${bound.join(', ')} were client-bound (our own client lagged), so their timing is not trusted and they are excluded from peaks.`);
  const tok = r.tokenizer;
  // By kind, not by label: the label can name the server's address.
  const counted = tok === undefined ? 'without a recorded tokenizer' : tok.kind === 'approximate' ? 'by the word approximation (no tokenizer was available)' : `with the ${tok.kind === 'file' ? "contract's tokenizer file" : "server's tokenizer"}`;
  if (tok === undefined || !tok.exact) out.push(`${cfg}: prompt lengths were counted ${counted}, so they are approximate.`);
  if (r.warnings.length > 0) out.push(`${cfg}: the run recorded warnings: ${[...new Set(r.warnings.map((w) => w.code))].join(', ')}.`);
  return out;
}

export function limitationsOf(runs: Record<ConfigurationKey, CheckedRun>, facts: readonly Fact[]): string[] {
  const missing = facts.filter((f) => f.value === null).map((f) => `${f.label} (${f.configuration}, ${f.statistic}) is not recorded: ${f.note ?? 'no value'}.`);
  return [
    'Each configuration was run once; the figures are not averaged over repeated runs and carry no confidence interval.',
    ...runLimits('baseline', runs.baseline),
    ...runLimits('optimized', runs.optimized),
    ...missing,
    'The cost figure is a GPU compute estimate at measured saturation: it excludes idle time, CPU, memory, networking, redundancy and platform fees.',
  ];
}
