/**
 * What every kind's receipt says the same way: its id's slug, each
 * configuration's line (identity, method, engine, dates, hashes) and the
 * server's own account of itself. The kinds' builders (text-receipt.ts,
 * pooling-receipt.ts) share it, so a configuration reads alike on every page.
 */
import type { SweepResult } from '../core/index.js';
import type { Configuration } from './receipt-schema.js';
import type { CheckedRun, PairRun } from './run-pair.js';

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
