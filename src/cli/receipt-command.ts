/**
 * `goodput receipt create --baseline RUN --optimized RUN --method "…" --out FILE`:
 * two runs (result JSON files or stored run ids) and an optional quality score
 * become one receipt file. Every problem is reported, one line each, and
 * nothing is written unless there are none.
 */
import type { Command } from 'commander';
import { type QualityScore, qualityScoreSchema, type SweepResult, sweepResultSchema } from '../core/index.js';
import { NO_PRICES, buildReceipt, datasetOf, gateDataset, gateSources, siteView } from '../publish/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { writeFileAtomic } from './files.js';
import { type Read, readJsonInput } from './json-input.js';
import { addStoreOptions, withCatalog } from './store-flags.js';

export interface ReceiptFlags {
  baseline: string; optimized: string; quality?: string; method: string; baselineMethod?: string; title?: string; out: string;
  data?: string; databaseUrl?: string;
}

const isRunId = (s: string) => /^\d+$/.test(s);

/** Both runs: ids through the store (opened once), files through the result schema. */
async function readRuns(f: ReceiptFlags): Promise<Record<'baseline' | 'optimized', Read<SweepResult>>> {
  const sides = ['baseline', 'optimized'] as const;
  const stored = sides.filter((s) => isRunId(f[s]));
  const fromStore = new Map<string, SweepResult>();
  if (stored.length > 0) {
    await withCatalog(f, 'goodput receipt create', async (c) => {
      for (const s of stored) fromStore.set(s, await c.exportRun(Number(f[s])));
    });
  }
  const read = async (s: (typeof sides)[number]): Promise<Read<SweepResult>> =>
    fromStore.has(s) ? { ok: true, value: fromStore.get(s) as SweepResult } : readJsonInput(`--${s}`, f[s], sweepResultSchema);
  return { baseline: await read('baseline'), optimized: await read('optimized') };
}

export async function createReceiptFile(f: ReceiptFlags): Promise<string> {
  const problems: string[] = [];
  if (f.out.trim() === '') problems.push('--out: must name a file');
  const runs = await readRuns(f);
  let quality: QualityScore | null = null;
  if (f.quality !== undefined) {
    const q = await readJsonInput('--quality', f.quality, qualityScoreSchema);
    if (q.ok) quality = q.value;
    else problems.push(...q.problems);
  }
  for (const side of ['baseline', 'optimized'] as const) {
    const r = runs[side];
    if (!r.ok) problems.push(...r.problems);
  }
  if (problems.length === 0 && runs.baseline.ok && runs.optimized.ok) {
    const built = buildReceipt({
      baseline: runs.baseline.value, optimized: runs.optimized.value, quality, method: f.method, baselineMethod: f.baselineMethod, title: f.title, generator: TOOL_VERSION,
    });
    if (built.ok) {
      // The same gate publish runs: a receipt that could never be published is not written.
      const r = built.receipt;
      const gate = [...gateSources([r], NO_PRICES), ...gateDataset(datasetOf(siteView([r], NO_PRICES, TOOL_VERSION)))];
      if (gate.length === 0) {
        await writeFileAtomic(f.out, JSON.stringify(r, null, 2) + '\n');
        return r.id;
      }
      problems.push(...gate.map((v) => `the provenance gate would refuse it: ${v.message}`));
    } else problems.push(...built.problems);
  }
  throw new CliError(EXIT.usage, `no receipt written:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

export function registerReceiptCommand(program: Command): void {
  const receipt = program.command('receipt').description('benchmark receipts: a baseline and an optimized run of one model on one GPU');
  addStoreOptions(receipt.command('create').description('build a receipt from two runs (result JSON files or stored run ids)')
    .requiredOption('--baseline <run>', 'the baseline run: a result JSON file (goodput run --json) or a stored run id')
    .requiredOption('--optimized <run>', 'the optimized run, on the same GPU with the same workload')
    .requiredOption('--method <text>', 'the optimization method of the optimized configuration')
    .option('--baseline-method <text>', 'the baseline configuration\'s method (default: as deployed, no optimization)')
    .option('--quality <file>', 'the quality score of the optimized against the baseline (goodput quality --json)')
    .option('--title <text>', 'the receipt\'s title (default: model on GPU: method)')
    .requiredOption('--out <file>', 'where to write the receipt JSON'))
    .action(async (f: ReceiptFlags) => {
      const id = await createReceiptFile(f);
      process.stdout.write(`receipt ${id} written to ${f.out}\n`);
    });
}
