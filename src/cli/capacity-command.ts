/**
 * `goodput capacity goodput.yaml`: the highest load at which every SLO of the
 * contract holds, with the evidence — the levels measured on both sides of the
 * boundary — and every probe.
 */
import type { Command } from 'commander';
import {
  type Contract,
  type ContractCapacity,
  type PoolingContractCapacity,
  contractCapacity,
  isPoolingEndpoint,
  poolingContractCapacity,
} from '../contract/index.js';
import { type LevelResult, type PoolingLevel, sanitizeForTerminal as clean } from '../core/index.js';
import { asUsageErrors, loadCheckedContract } from './contract-errors.js';
import { CliError, EXIT } from './exit-codes.js';
import { sayWritten } from './files.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { apiKeyFromEnv, badFlag, parseNumber, parseUrl, redactedCommand } from './parse-flags.js';
import { grid } from './render-contract.js';

interface CapacityFlags {
  url?: string;
  apiKeyEnv?: string;
  json?: string;
  resolution: string;
  maxProbes: string;
}

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

function evidenceRow(side: string, l: LevelResult | null): string[] {
  if (!l) return [side, '—', '—', '—', '—', '—', '—'];
  const checks = l.goodput?.checks.map((c) => `${c.metric.replace('Ms', '')} p${c.p} ${c.observed === null ? '∞' : fmt(c.observed)}/${c.max}`).join(' ') ?? '—';
  return [
    side,
    l.load?.label ?? String(l.concurrency),
    String(l.requests),
    String(l.failed),
    fmt(l.goodput?.share === undefined || l.goodput.share === null ? null : l.goodput.share * 100),
    checks,
    l.goodput?.holds ? 'holds' : 'misses',
  ];
}

export function renderCapacity(c: ContractCapacity): string {
  const evidence = grid(
    ['Side', 'Load', 'Requests', 'Failed', 'Met SLO %', 'SLO observed/max (ms)', 'Verdict'],
    [evidenceRow('held (below)', c.evidence.below), evidenceRow('missed (above)', c.evidence.above)],
  );
  const probes = c.probes.map((p, i) => `  ${i + 1}. ${p.phase.padEnd(6)} ${p.label}: ${p.holds ? 'holds' : 'misses'} — ${p.reason}`);
  const step = c.stepSize === null ? '' : ` (boundary bracketed to within ${fmt(c.stepSize, 3)} on the ${c.axis} axis)`;
  return [`${c.statement}${step}`, '', 'Evidence:', evidence, '', 'Probes in order:', ...probes].join('\n');
}

function poolingRow(side: string, l: PoolingLevel | null): string[] {
  if (!l) return [side, '—', '—', '—', '—', '—', '—'];
  const slo = l.slo === null ? '—' : `p${l.slo.p} ${l.slo.observedMs === null ? '∞' : fmt(l.slo.observedMs)}/${l.slo.maxMs}`;
  return [
    side,
    `concurrency ${l.concurrency}`,
    String(l.requests),
    String(l.failed),
    fmt(l.itemsPerS),
    slo,
    l.slo?.holds === true && l.failed === 0 ? 'holds' : 'misses',
  ];
}

/** An embeddings or rerank capacity report: the statement, both sides of the boundary, every probe. */
export function renderPoolingCapacity(c: PoolingContractCapacity): string {
  const items = c.endpoint === 'rerank' ? 'Documents/s' : 'Inputs/s';
  const evidence = grid(
    ['Side', 'Load', 'Requests', 'Failed', items, 'Latency observed/max (ms)', 'Verdict'],
    [poolingRow('held (below)', c.evidence.below), poolingRow('missed (above)', c.evidence.above)],
  );
  const probes = c.probes.map((p, i) => `  ${i + 1}. ${p.phase.padEnd(6)} ${p.label}: ${p.holds ? 'holds' : 'misses'} — ${p.reason}`);
  return [c.statement, '', 'Evidence:', evidence, '', 'Probes in order:', ...probes].join('\n');
}

/** Runs the search a contract's endpoint calls for, with each probe's verdict on stderr. */
async function capacityOf(
  contract: Contract,
  o: { url: string | undefined; apiKey: string | undefined; resolution: number; maxProbes: number; command: string },
): Promise<{ report: ContractCapacity | PoolingContractCapacity; text: () => string }> {
  const onProbe = (p: { label: string; holds: boolean; reason: string }) =>
    process.stderr.write(clean(`probe ${p.label}: ${p.holds ? 'holds' : 'misses'} (${p.reason})`) + '\n');
  if (isPoolingEndpoint(contract.server.endpoint)) {
    const report = await poolingContractCapacity(contract, { url: o.url, apiKey: o.apiKey, maxProbes: o.maxProbes, command: o.command, onProbe });
    return { report, text: () => renderPoolingCapacity(report) };
  }
  const report = await contractCapacity(contract, {
    url: o.url,
    apiKey: o.apiKey,
    resolution: o.resolution,
    maxProbes: o.maxProbes,
    command: o.command,
    onProbe,
  });
  return { report, text: () => renderCapacity(report) };
}

export function registerCapacityCommand(program: Command): void {
  program
    .command('capacity')
    .description(
      'find the highest load at which every SLO of a contract holds (coarse sweep, then bisection; embeddings and rerank: the highest concurrency meeting slo.e2eMs)',
    )
    .argument('<goodput.yaml>', 'the contract file (one workload cell; its load levels are the coarse sweep)')
    .option('--url <url>', 'server base URL, overriding server.url')
    .option('--api-key-env <name>', 'environment variable holding the API key (default: server.apiKeyEnv, else GOODPUT_API_KEY)')
    .option('--resolution <share>', 'rate axes: stop when the bracket is within this share of the upper level', '0.1')
    .option('--max-probes <n>', 'most probes in all', '24')
    .option('--json <file|->', 'write the capacity report JSON to a file, or to stdout with -')
    .action(async (path: string, flags: CapacityFlags) => {
      const contract = await loadCheckedContract(path);
      const url = flags.url === undefined ? undefined : parseUrl('--url', flags.url);
      const resolution = parseNumber('--resolution', flags.resolution, { min: 0, exclusiveMin: true });
      if (resolution >= 1) throw badFlag('--resolution', `'${flags.resolution}' must be below 1 (a share of the upper level)`);
      const maxProbes = parseNumber('--max-probes', flags.maxProbes, { integer: true, min: 1 });
      const apiKey = apiKeyFromEnv(flags.apiKeyEnv, contract.server.apiKeyEnv ?? 'GOODPUT_API_KEY');
      const { report, text } = await asUsageErrors(() =>
        capacityOf(contract, { url, apiKey, resolution, maxProbes, command: redactedCommand(['goodput', ...process.argv.slice(2)]) }),
      );
      // The report is written even when the table cannot be shown, and the other way round.
      const after = new AfterMeasuring();
      const wrote = await writeResult(after, report, flags.json, () => clean(text(), { keepNewlines: true }));
      sayWritten([wrote]);
      const code = after.code(report.verdict === 'stopped' ? EXIT.serverFailed : EXIT.ok);
      if (code !== EXIT.ok) throw new CliError(code, '');
    });
}
