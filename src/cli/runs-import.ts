/**
 * `goodput runs import RESULT [--raw RECORDS]`: stores a run the store could not
 * take while it was measured (the `goodput serve` it saved through died). The
 * result and its raw records are the sweep's own files (a result of goodput run
 * carries its records, so it needs no --raw); each level is stored
 * only if the records hold exactly the requests the result counts for it.
 */
import { type RawRecord, type SweepResult, levelRecordsProblem } from '../core/index.js';
import type { SweepSpecInput } from '../runner/index.js';
import { beginRunOf } from '../runs/index.js';
import { readResult } from './cards-command.js';
import { CliError, EXIT } from './exit-codes.js';
import { readRawRecords } from './export-command.js';
import { type StoreCliFlags, withCatalog } from './store-flags.js';

/** The sweep a result came from, as far as storing it needs (the key is never in a result). */
function specOf(result: SweepResult): SweepSpecInput {
  const r = result.run;
  return {
    url: r.url,
    model: r.model,
    endpoint: r.endpoint,
    levels: r.levelsRequested,
    ...(r.arrival ? { arrival: r.arrival } : {}),
    slo: r.slo ?? null,
    outputTokens: r.outputTokens,
    promptTokens: r.promptTokens,
    requestsPerLevel: r.requestsPerLevel,
    warmup: r.warmupPerLevel,
    thinking: r.thinking === 'on',
    forceLength: r.forceLength,
    temperature: r.temperature,
    seed: r.seed,
    hourlyCostUsd: r.hourlyCostUsd,
    baselineRateUsdPer1M: r.baselineRateUsdPer1M,
    gpuLabel: r.gpuLabel,
    command: r.command,
  };
}

/** Each level's measured records, refused when they do not reproduce the level's counts. */
export function recordsByLevel(result: SweepResult, records: readonly RawRecord[], rawPath: string): RawRecord[][] {
  return result.levels.map((level) => {
    const mine = records.filter((r) => r.concurrency === level.concurrency);
    const problem = levelRecordsProblem(level, mine, "the result's");
    if (problem !== null) throw new CliError(EXIT.usage, `${rawPath}: level ${level.concurrency} ${problem}`);
    return mine;
  });
}

/** Stores `resultPath` with the records of `rawPath`, or, without one, those the result carries (goodput run writes them in). */
export async function importRun(resultPath: string, rawPath: string | undefined, flags: StoreCliFlags): Promise<number> {
  const result = await readResult(resultPath);
  if (result.matrix) throw new CliError(EXIT.usage, `${resultPath}: a contract matrix is not one run; only a single sweep can be stored`);
  if (result.levels.length === 0) throw new CliError(EXIT.usage, `${resultPath}: no level finished, so there is nothing to store`);
  if (rawPath === undefined && result.records === undefined) {
    throw new CliError(EXIT.usage, `--raw: ${resultPath} carries no records of its own: give the JSONL file the same sweep wrote with --raw`);
  }
  const records: RawRecord[] = rawPath === undefined ? (result.records ?? []).map((r) => ({ ...r, cell: r.cell ?? 0 })) : await readRawRecords(rawPath);
  const byLevel = recordsByLevel(result, records, rawPath ?? `${resultPath}'s records`);
  return withCatalog(flags, 'goodput runs import', async (catalog) => {
    const writer = await catalog.beginRun(beginRunOf(specOf(result)));
    try {
      await writer.setModel(result.run.model);
      for (const w of result.warnings) await writer.addWarning(w);
      for (const [i, level] of result.levels.entries()) await writer.saveLevel(level, byLevel[i] ?? []);
      await writer.finish(result);
    } catch (err) {
      await writer.abandon(`the import broke: ${(err as Error).message}`).catch(() => {});
      throw err;
    }
    return writer.runId;
  });
}
