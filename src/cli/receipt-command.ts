/**
 * `goodput receipt create --baseline RUN --optimized RUN --method "…" --out FILE`:
 * two runs (result JSON files or stored run ids) and an optional quality score
 * become one receipt file. Every problem is reported, one line each, and
 * nothing is written unless there are none.
 */
import type { Command } from 'commander';
import { LIMITS, type QualityScore, poolingResultSchema, qualityScoreSchema, type SweepResult, sweepResultSchema } from '../core/index.js';
import { dirname, join } from 'node:path';
import { recordsSha256 } from '../contract/index.js';
import { existsSync } from 'node:fs';
import {
  KEY_FILE_BYTES, NO_PRICES, buildReceipt, checkSignedEvidence, checkSignedResult, datasetOf, gateDataset, gateSources, packEvidence, publicResult, readBounded, receiptFile,
  recomputeReceipt, signaturePath, siteView,
} from '../publish/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { writeFileAtomic } from './files.js';
import { type Read, readJsonInput } from './json-input.js';
import { addStoreOptions, withCatalog } from './store-flags.js';
import { storedTextRun } from './stored-text-run.js';

export interface ReceiptFlags {
  baseline: string; optimized: string; quality?: string; method: string; baselineMethod?: string; title?: string; out: string; allowServerDisagreement?: boolean;
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
      for (const s of stored) {
        // A stored run's evidence is its records, kept level by level in the store.
        const { result, records } = await storedTextRun(c, Number(f[s]), 'goodput receipt create');
        fromStore.set(s, { ...result, records, recordsSha256: recordsSha256(records) });
      }
    });
  }
  const read = async (s: (typeof sides)[number]): Promise<Read<SweepResult>> =>
    fromStore.has(s) ? { ok: true, value: fromStore.get(s) as SweepResult } : readJsonInput(`--${s}`, f[s], sweepResultSchema);
  const runs = { baseline: await read('baseline'), optimized: await read('optimized') };
  return { ...runs, ...await poolingRefusal(f, runs) };
}

/**
 * An embeddings or rerank result is not a text result: its side is named by its endpoint, and a pair
 * of two endpoints is refused naming both. Receipts publish text-generation headlines only, so a pair
 * of non-streaming runs is refused too, saying so. Null when neither side is one.
 */
async function poolingRefusal(f: ReceiptFlags, runs: Record<'baseline' | 'optimized', Read<SweepResult>>): Promise<Partial<Record<'baseline' | 'optimized', Read<SweepResult>>>> {
  const endpoint = async (s: 'baseline' | 'optimized'): Promise<string | null> => {
    const r = runs[s];
    if (r.ok) return r.value.run.endpoint;
    if (isRunId(f[s])) return null;
    const pooling = await readJsonInput(`--${s}`, f[s], poolingResultSchema);
    return pooling.ok ? pooling.value.run.endpoint : null;
  };
  const b = await endpoint('baseline');
  const o = await endpoint('optimized');
  const pooled = (e: string | null) => e === 'embeddings' || e === 'rerank';
  if (!pooled(b) && !pooled(o)) return {};
  const why = b !== null && o !== null && b !== o
    ? `a receipt compares two runs of one endpoint: --baseline is ${article(b)} ${b} run, --optimized ${article(o)} ${o} run`
    : `receipts publish text-generation runs only: ${pooled(b) ? `--baseline is ${article(b as string)} ${b as string} run` : `--optimized is ${article(o as string)} ${o as string} run`} (compare its JSON results instead)`;
  const refusal: Read<SweepResult> = { ok: false, problems: [why] };
  return { baseline: refusal, optimized: { ok: false, problems: [] } };
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/**
 * The signature `goodput run --sign` left beside a result file (FILE.dsse.json),
 * checked: it must verify, sign this file's bytes and its published copy
 * `evidenceSha256`. Null when the run was not signed (or is a stored run); a
 * problem line when the signature does not hold.
 */
async function runSignatureOf(flag: string, path: string, evidenceSha256: string): Promise<Buffer | string | null> {
  if (isRunId(path) || !existsSync(`${path}.dsse.json`)) return null;
  const env = await readBounded(`${path}.dsse.json`, KEY_FILE_BYTES * 4);
  const bytes = await readBounded(path, LIMITS.inputFileBytes.max);
  if (!env.ok || !bytes.ok) return `${flag}: ${path}.dsse.json cannot be read with its result (${env.ok ? (bytes.ok ? '' : bytes.problem) : env.problem}) [rule: signature]`;
  const text = env.bytes.toString('utf8');
  const own = checkSignedResult(bytes.bytes, text, null);
  if (!own.ok) return `${flag}: ${path}.dsse.json: ${own.problem} [rule: signature]`;
  const copy = checkSignedEvidence(text, evidenceSha256);
  if (!copy.ok) return `${flag}: ${path}.dsse.json: ${copy.problem}; sign the run again with this goodput (run --sign) [rule: signature]`;
  return env.bytes;
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
    // A score measured in the optimized run ships inside that run's evidence; a --quality file is packed beside it.
    const stated = quality ?? runs.optimized.value.quality ?? null;
    const built = buildReceipt({
      baseline: runs.baseline.value, optimized: runs.optimized.value, quality: stated, method: f.method, baselineMethod: f.baselineMethod, title: f.title, generator: TOOL_VERSION,
    });
    if (built.ok) {
      const r = built.receipt;
      const packed = {
        baseline: packEvidence(publicResult(runs.baseline.value)), optimized: packEvidence(publicResult(runs.optimized.value)),
        quality: quality === null ? null : packEvidence(quality),
      };
      const files = new Map([packed.baseline, packed.optimized, packed.quality].flatMap((p) => (p === null ? [] : [[p.path, p.gz] as const])));
      for (const side of ['baseline', 'optimized'] as const) {
        const signed = await runSignatureOf(`--${side}`, f[side], packed[side].sha256);
        if (typeof signed === 'string') problems.push(signed);
        else if (signed !== null) files.set(signaturePath(packed[side].sha256), signed);
      }
      const text = JSON.stringify(receiptFile(r, { baseline: packed.baseline.sha256, optimized: packed.optimized.sha256, quality: packed.quality?.sha256 ?? null }, f.allowServerDisagreement === true), null, 2) + '\n';
      // What publish will do, done now: recomputed from the evidence, then the provenance gate.
      const again = problems.length > 0 ? null : await recomputeReceipt(text, files, new Date().toISOString().slice(0, 10));
      if (again === null) throw new CliError(EXIT.usage, `no receipt written:\n${problems.map((p) => `  ${p}`).join('\n')}`);
      if (again.ok) {
        const gate = [...gateSources([again.receipt], NO_PRICES), ...gateDataset(datasetOf(siteView([again.receipt], NO_PRICES, TOOL_VERSION)))];
        if (gate.length === 0) {
          const dir = dirname(f.out);
          for (const [path, gz] of files) await writeFileAtomic(join(dir, path), gz);
          await writeFileAtomic(f.out, text);
          return r.id;
        }
        problems.push(...gate.map((v) => `the provenance gate would refuse it: ${v.message}`));
      } else problems.push(...again.refusals.map((x) => x.message));
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
    .option('--allow-server-disagreement', 'publish even where the server\'s own /metrics disagree with our figures past the allowance; each disagreement is then a limitation')
    .requiredOption('--out <file>', 'where to write the receipt JSON'))
    .action(async (f: ReceiptFlags) => {
      const id = await createReceiptFile(f);
      process.stdout.write(`receipt ${id} written to ${f.out}\n`);
    });
}
