/**
 * `goodput utilisation TRACE --capacity RESULT --url URL`: replays a trace of
 * representative traffic against the server whose capacity RESULT measured, and
 * reports the utilisation that traffic achieves (served output tok/s ÷ the
 * capacity at the same SLOs), its time series, and — with `--hourly-cost` — the
 * cost per successful 1M output tokens computed with it (provenance: measured).
 * The capacity is recomputed from RESULT's raw records; the file's own numbers
 * are never used.
 */
import type { Command } from 'commander';
import {
  BUSINESS_COST_FORMULA,
  type LevelResult,
  type RequestRecord,
  type SweepResult,
  businessCost,
  capacityOfLevels,
  costPer1MSuccessfulUsd,
  sanitizeForTerminal as clean,
  sparkline,
} from '../core/index.js';
import { type Contract, verifiedContract } from '../contract/index.js';
import { levelFromRecords } from '../runner/index.js';
import { sha256Hex } from '../workload/index.js';
import { readRegularFile } from '../files/index.js';
import { basename } from 'node:path';
import { readResult } from './cards-command.js';
import { CliError, EXIT } from './exit-codes.js';
import { readRawRecords } from './export-command.js';
import { INPUT_FILE } from './json-input.js';
import { sayWritten, writeFileAtomic } from './files.js';
import { parseNumber } from './parse-flags.js';
import { type ReplayFlags, addReplayOptions, replaySpec } from './replay-command.js';
import { saveTarget } from './save-run.js';
import { sweepAndReport } from './sweep-command.js';
import { observeFromFlags } from './observe-flags.js';
import { spendGuardFromFlags } from './spend-guard.js';

interface UtilisationFlags extends ReplayFlags {
  capacity: string;
  capacityRaw?: string;
  report?: string;
}

/** The capacity run's levels as its records give them; a stated figure that differs is refused, naming it. */
export function recomputedLevels(result: SweepResult, records: readonly RequestRecord[], where: string): LevelResult[] {
  return result.levels.map((stated) => {
    const again = levelFromRecords(
      result,
      stated,
      records.filter((r) => r.concurrency === stated.concurrency),
    );
    const at = `${where}: levels[c=${stated.concurrency}]`;
    const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
    if (again.requests !== stated.requests) throw new CliError(EXIT.usage, `${at}.requests states ${stated.requests}, its records give ${again.requests}`);
    if (!same(again.throughputTokS, stated.throughputTokS))
      throw new CliError(EXIT.usage, `${at}.throughputTokS states ${stated.throughputTokS}, its records give ${again.throughputTokS}`);
    if ((again.goodput?.holds ?? null) !== (stated.goodput?.holds ?? null))
      throw new CliError(EXIT.usage, `${at}.goodput.holds states ${stated.goodput?.holds ?? null}, its records give ${again.goodput?.holds ?? null}`);
    return { ...again, invalid: stated.invalid || again.invalid, clientBound: stated.clientBound };
  });
}

/** The capacity run's contract, when it has one; refused when it does not hash to the hash the result states. */
function contractOf(cap: SweepResult, where: string): Contract | null {
  const v = verifiedContract(cap);
  if (v.ok) return v.contract;
  if (v.reason === 'absent') return null;
  if (v.reason === 'schema') throw new CliError(EXIT.usage, `--capacity: ${where}: contract.${v.issues[0]?.path}: ${v.issues[0]?.message}`);
  throw new CliError(
    EXIT.usage,
    `--capacity: ${where}: contractHash states ${v.stated ?? 'none'}, its contract hashes to ${v.actual}; the contract was edited`,
  );
}

const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

export function registerUtilisationCommand(program: Command): void {
  const cmd = addReplayOptions(
    program
      .command('utilisation')
      .description('measure the utilisation a trace of real traffic achieves against a server of measured capacity')
      .argument('<trace>', 'the trace file (as for goodput replay)'),
  )
    .requiredOption('--capacity <result.json>', 'the capacity run: a sweep --json or goodput run --json result of this server, at the SLOs to judge by')
    .option('--capacity-raw <records.jsonl>', "the capacity run's raw records (its --raw file), when its result does not carry them")
    .option('--report <file>', 'write the utilisation report (figures, sources, time series, cost) as JSON');
  cmd.action(async (path: string, flags: UtilisationFlags) => {
    const cap = await readResult(flags.capacity);
    const capacityFile = await readRegularFile(flags.capacity, INPUT_FILE).catch(() => null);
    if (cap.matrix) throw new CliError(EXIT.usage, `--capacity: ${flags.capacity} is a contract matrix; give the result of one sweep or run`);
    const records = cap.records ?? (flags.capacityRaw ? await readRawRecords(flags.capacityRaw) : null);
    if (records === null)
      throw new CliError(EXIT.usage, `--capacity: ${flags.capacity} carries no raw records; give them with --capacity-raw (the sweep's --raw file)`);
    const capacity = capacityOfLevels(recomputedLevels(cap, records, flags.capacity), cap.run.slo != null);
    if ('reason' in capacity) throw new CliError(EXIT.usage, `--capacity: ${capacity.reason}, so there is no capacity to measure utilisation against`);
    const speeds = flags.speed.split(',');
    if (speeds.length !== 1) throw new CliError(EXIT.usage, '--speed: give one speed: utilisation is measured for one replay');
    // The hourly cost: the flag, else the capacity contract's priced hardware (GPU and overheads, with their dates).
    const hw = contractOf(cap, flags.capacity)?.hardware;
    const priced = hw?.gpuHourlyUsd !== undefined ? hw : null;
    const hourly =
      flags.hourlyCost !== undefined
        ? parseNumber('--hourly-cost', flags.hourlyCost, { min: 0 })
        : priced
          ? (priced.gpuHourlyUsd as number) + priced.overheads.reduce((a, o) => a + o.usdPerHour, 0)
          : null;
    // The same model and the same SLOs as the capacity run.
    const { spec, trace } = await replaySpec(cmd, path, { ...flags, model: flags.model ?? cap.run.model });
    const { code, result } = await sweepAndReport(
      { ...spec, slo: cap.run.slo ?? null },
      {
        json: flags.json,
        raw: flags.raw,
        save: saveTarget(flags, false, 'goodput utilisation'),
        spend: spendGuardFromFlags(flags),
        observe: observeFromFlags(flags),
      },
    );
    const level = result.levels[0];
    if (code !== EXIT.ok || level === undefined)
      throw new CliError(code === EXIT.ok ? EXIT.serverFailed : code, 'the replay did not complete, so no utilisation is measured');
    const utilisation = level.throughputTokS / capacity.tokS;
    const share = level.goodput?.share ?? (level.requests > 0 ? level.succeeded / level.requests : 0);
    const series = level.replaySeries ?? [];
    const cost = hourly === null || !(utilisation > 0) ? null : costPer1MSuccessfulUsd(hourly, capacity.tokS, Math.min(1, utilisation), share);
    const measuredFrom = `replay of ${basename(path)} (sha256 ${trace.sha256.slice(0, 12)}…) against ${basename(flags.capacity)}, ${result.run.startedAt.slice(0, 10)}`;
    const contractCost =
      flags.hourlyCost === undefined && priced && utilisation > 0
        ? businessCost({
            gpu: { name: priced.label, usdPerHour: priced.gpuHourlyUsd as number, asOf: priced.priceAsOf ?? 'not dated' },
            overheads: priced.overheads,
            peakTokS: capacity.tokS,
            peakAsOf: `${capacity.level}, measured ${cap.run.startedAt.slice(0, 10)}`,
            utilisation: Math.min(1, utilisation),
            utilisationAsOf: measuredFrom,
            utilisationProvenance: 'measured',
            successShare: share,
            successAsOf: measuredFrom,
          })
        : null;
    const capacityName = basename(flags.capacity);
    const lines = [
      '',
      `Utilisation ${fmt(utilisation, 3)} (measured): served ${fmt(level.throughputTokS)} tok/s over the replay of ${clean(basename(path))} (sha256 ${trace.sha256.slice(0, 12)}…)`,
      `  ÷ capacity ${fmt(capacity.tokS)} tok/s: ${capacity.basis}, at ${clean(capacity.level)} in ${clean(capacityName)} (run of ${cap.run.startedAt})`,
      ...(utilisation > 1 ? ['  above 1: the replay served more than the capacity run sustained at these SLOs; measure capacity again over more levels'] : []),
      ...(level.clientBound.bound
        ? [`  client-bound during the replay (${clean(level.clientBound.reason ?? '')}): the served figure may be ours, not the server's`]
        : []),
      `  arrivals   ${sparkline(series.map((p) => p.arrivals))}`,
      `  in flight  ${sparkline(series.map((p) => p.inFlight))}  peak ${Math.max(0, ...series.map((p) => p.inFlight))}`,
      `  tok/s      ${sparkline(series.map((p) => p.tokS))}  peak ${fmt(Math.max(0, ...series.map((p) => p.tokS)), 0)}`,
      ...(cap.run.slo
        ? [
            `  SLO met    ${sparkline(
              series.map((p) => p.attainment),
              1,
            )}  overall ${fmt(share * 100, 1)}%`,
          ]
        : []),
      hourly === null
        ? 'No --hourly-cost was given, so no cost figure is produced.'
        : cost === null
          ? 'Cost per successful 1M output tokens: none (no request met every SLO)'
          : `Cost per successful 1M output tokens: $${cost.toFixed(2)} = $${fmt(hourly, 2)}/h / (${fmt(capacity.tokS)} tok/s × utilisation ${fmt(Math.min(1, utilisation), 3)} (measured) × success share ${fmt(share, 3)} × 3600) × 1e6`,
    ];
    if (contractCost) {
      lines.push(
        `  hourly cost from the capacity run's contract: ${contractCost.inputs
          .filter((i) => i.unit === '$/h')
          .map((i) => `${clean(i.name)} $${fmt(i.value, 2)}/h (${clean(i.asOf)})`)
          .join(' + ')}`,
      );
      if (hw?.utilisation !== undefined)
        lines.push(`  the contract declares utilisation ${hw.utilisation} (${hw.utilisationAsOf ?? 'not dated'}); the measured one is used here`);
    }
    process.stdout.write(lines.join('\n') + '\n');
    if (flags.report) {
      const report = {
        utilisation,
        provenance: 'measured',
        servedTokS: level.throughputTokS,
        successShare: share,
        capacity: {
          tokS: capacity.tokS,
          level: capacity.level,
          basis: capacity.basis,
          file: capacityName,
          sha256: capacityFile ? sha256Hex(capacityFile) : null,
          startedAt: cap.run.startedAt,
          slo: cap.run.slo ?? null,
        },
        trace: { file: basename(path), sha256: trace.sha256, format: trace.format, window: 'window' in trace ? trace.window : null },
        cost: contractCost ?? (hourly === null ? null : { hourlyUsd: hourly, costPer1MSuccessfulUsd: cost, formula: BUSINESS_COST_FORMULA }),
        series,
      };
      await writeFileAtomic(flags.report, JSON.stringify(report, null, 2) + '\n');
      sayWritten([flags.report]);
    }
  });
}
