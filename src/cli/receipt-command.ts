/**
 * `goodput receipt create --baseline RUN --optimized RUN --method "…" --out FILE`:
 * two runs (result JSON files or stored run ids) and an optional quality score
 * become one receipt file. Every problem is reported, one line each, and
 * nothing is written unless there are none.
 */
import type { Command } from 'commander';
import { LIMITS, type QualityScore, qualityScoreSchema, type SweepResult, sweepResultSchema } from '../core/index.js';
import { dirname, join } from 'node:path';
import { recordsSha256 } from '../contract/index.js';
import { existsSync } from 'node:fs';
import {
  KEY_FILE_BYTES,
  NO_PRICES,
  type Receipt,
  type ReceiptOutcome,
  type ReceiptResult,
  buildReceipt,
  checkSignedEvidence,
  checkSignedResult,
  datasetOf,
  gateDataset,
  gateSources,
  otherKindResultSchema,
  packEvidence,
  publicResult,
  readBounded,
  receiptFile,
  recomputeReceipt,
  signedWith,
  signaturePath,
  siteView,
} from '../publish/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { writeFileAtomic } from './files.js';
import { type Read, readJsonInput } from './json-input.js';
import { addStoreOptions, withCatalog } from './store-flags.js';
import { storedTextRun } from './stored-text-run.js';

export interface ReceiptFlags {
  baseline: string;
  optimized: string;
  quality?: string;
  method: string;
  baselineMethod?: string;
  title?: string;
  out: string;
  allowServerDisagreement?: boolean;
  data?: string;
  databaseUrl?: string;
}

const isRunId = (s: string) => /^\d+$/.test(s);

/** Both runs: ids through the store (opened once), files through the result schema. */
async function readRuns(
  f: ReceiptFlags,
): Promise<{ runs: Record<'baseline' | 'optimized', Read<SweepResult>>; other: Record<'baseline' | 'optimized', ReceiptResult> | null }> {
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
  const others = await otherKindSides(f, runs);
  return { runs: { ...runs, ...others.refusal }, other: others.pair ?? null };
}

/**
 * A result of another kind than text (embeddings, rerank: the kinds table's other schemas) is not a text result: its
 * side is named by its endpoint. Two of one endpoint make that kind's receipt; a pair of two endpoints is refused
 * naming both. Empty when neither side is one.
 */
async function otherKindSides(
  f: ReceiptFlags,
  runs: Record<'baseline' | 'optimized', Read<SweepResult>>,
): Promise<{ refusal?: Partial<Record<'baseline' | 'optimized', Read<SweepResult>>>; pair?: Record<'baseline' | 'optimized', ReceiptResult> }> {
  const read = async (s: 'baseline' | 'optimized'): Promise<{ endpoint: string | null; other: ReceiptResult | null }> => {
    const r = runs[s];
    if (r.ok) return { endpoint: r.value.run.endpoint, other: null };
    if (isRunId(f[s])) return { endpoint: null, other: null };
    const other = await readJsonInput(`--${s}`, f[s], otherKindResultSchema);
    return other.ok ? { endpoint: other.value.run.endpoint, other: other.value } : { endpoint: null, other: null };
  };
  const b = await read('baseline');
  const o = await read('optimized');
  if (b.other === null && o.other === null) return {};
  if (b.other !== null && o.other !== null && b.endpoint === o.endpoint) return { pair: { baseline: b.other, optimized: o.other } };
  const side = (x: typeof b, flag: string, is: string) =>
    x.endpoint === null ? `${flag} is not a result goodput reads` : `${flag}${is} ${article(x.endpoint)} ${x.endpoint} run`;
  const why = `a receipt compares two runs of one endpoint: ${side(b, '--baseline', ' is')}, ${side(o, '--optimized', '')}`;
  return { refusal: { baseline: { ok: false, problems: [why] }, optimized: { ok: false, problems: [] } } };
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
  if (!env.ok || !bytes.ok)
    return `${flag}: ${path}.dsse.json cannot be read with its result (${env.ok ? (bytes.ok ? '' : bytes.problem) : env.problem}) [rule: signature]`;
  const text = env.bytes.toString('utf8');
  const own = checkSignedResult(bytes.bytes, text, null);
  if (!own.ok) return `${flag}: ${path}.dsse.json: ${own.problem} [rule: signature]`;
  const copy = checkSignedEvidence(text, evidenceSha256);
  if (!copy.ok) return `${flag}: ${path}.dsse.json: ${copy.problem}; sign the run again with this goodput (run --sign) [rule: signature]`;
  return env.bytes;
}

/** The receipt built from both sides, and each side's public copy to pack as evidence; or every problem. */
async function builtReceipt(
  f: ReceiptFlags,
  problems: string[],
): Promise<{ built: ReceiptOutcome; evidence: Record<'baseline' | 'optimized', unknown>; quality: QualityScore | null } | null> {
  const { runs, other } = await readRuns(f);
  if (other !== null) {
    // Only text generation is scored: no other kind generates text.
    const e = other.baseline.run.endpoint;
    if (f.quality !== undefined) problems.push(`--quality: ${article(e)} ${e} receipt carries no quality score: nothing is generated to score`);
    if (problems.length > 0) return null;
    const built = buildReceipt({ ...other, quality: null, method: f.method, baselineMethod: f.baselineMethod, title: f.title, generator: TOOL_VERSION });
    return { built, evidence: { baseline: publicResult(other.baseline), optimized: publicResult(other.optimized) }, quality: null };
  }
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
  if (problems.length > 0 || !runs.baseline.ok || !runs.optimized.ok) return null;
  // A score measured in the optimized run ships inside that run's evidence; a --quality file is packed beside it.
  const stated = quality ?? runs.optimized.value.quality ?? null;
  const built = buildReceipt({
    baseline: runs.baseline.value,
    optimized: runs.optimized.value,
    quality: stated,
    method: f.method,
    baselineMethod: f.baselineMethod,
    title: f.title,
    generator: TOOL_VERSION,
  });
  return { built, evidence: { baseline: publicResult(runs.baseline.value), optimized: publicResult(runs.optimized.value) }, quality };
}

/** A receipt of fact set 3 states who signed its evidence, as the recomputation will find it (standing.ts). */
const withSignatures = (r: Receipt, keyids: Record<'baseline' | 'optimized', string | null>): Receipt =>
  r.signatures === undefined ? r : { ...r, signatures: signedWith(r.signatures, keyids) };

export async function createReceiptFile(f: ReceiptFlags): Promise<string> {
  const problems: string[] = [];
  if (f.out.trim() === '') problems.push('--out: must name a file');
  const made = await builtReceipt(f, problems);
  if (made !== null) {
    const { built, quality } = made;
    if (built.ok) {
      const r = built.receipt;
      const packed = {
        baseline: packEvidence(made.evidence.baseline),
        optimized: packEvidence(made.evidence.optimized),
        quality: quality === null ? null : packEvidence(quality),
      };
      const files = new Map([packed.baseline, packed.optimized, packed.quality].flatMap((p) => (p === null ? [] : [[p.path, p.gz] as const])));
      const keyids = { baseline: null as string | null, optimized: null as string | null };
      for (const side of ['baseline', 'optimized'] as const) {
        const signed = await runSignatureOf(`--${side}`, f[side], packed[side].sha256);
        if (typeof signed === 'string') problems.push(signed);
        else if (signed !== null) {
          files.set(signaturePath(packed[side].sha256), signed);
          const checked = checkSignedEvidence(signed.toString('utf8'), packed[side].sha256);
          keyids[side] = checked.ok ? checked.keyId : null;
        }
      }
      const text =
        JSON.stringify(
          receiptFile(
            withSignatures(r, keyids),
            { baseline: packed.baseline.sha256, optimized: packed.optimized.sha256, quality: packed.quality?.sha256 ?? null },
            f.allowServerDisagreement === true,
          ),
          null,
          2,
        ) + '\n';
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
  addStoreOptions(
    receipt
      .command('create')
      .description('build a receipt from two runs (result JSON files or stored run ids)')
      .requiredOption('--baseline <run>', 'the baseline run: a result JSON file (goodput run --json) or a stored run id')
      .requiredOption('--optimized <run>', 'the optimized run, on the same GPU with the same workload')
      .requiredOption('--method <text>', 'the optimization method of the optimized configuration')
      .option('--baseline-method <text>', "the baseline configuration's method (default: as deployed, no optimization)")
      .option('--quality <file>', 'the quality score of the optimized against the baseline (goodput quality --json)')
      .option('--title <text>', "the receipt's title (default: model on GPU: method)")
      .option(
        '--allow-server-disagreement',
        "publish even where the server's own /metrics disagree with our figures past the allowance; each disagreement is then a limitation",
      )
      .requiredOption('--out <file>', 'where to write the receipt JSON'),
  ).action(async (f: ReceiptFlags) => {
    const id = await createReceiptFile(f);
    process.stdout.write(`receipt ${id} written to ${f.out}\n`);
  });
}
