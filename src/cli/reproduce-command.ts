/**
 * `goodput reproduce RECEIPT --baseline-url U1 --optimized-url U2`: a reader
 * checks a receipt instead of trusting it. The receipt is first checked as
 * publish and verify check it (recomputed from its evidence; a tampered one is
 * refused naming the field, exit 2); then each side's contract from that
 * evidence runs again on the server the reader names, as many times as the
 * receipt's set declares; the receipt builder makes the receipt those runs
 * give (the quality score measured again of U2 against U1 where the receipt
 * states one), and each published claim is set beside its reproduction
 * (publish's reproduceClaims). Exit 0 when every claim holds, 8 when one does not.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import {
  type ClaimCheck,
  type Receipt,
  type ReceiptResult,
  buildReceipt,
  levelVerdicts,
  readBounded,
  recomputeReceipt,
  reproduceClaims,
  withLevelRuns,
} from '../publish/index.js';
import { LIMITS, type QualityScore, type SweepResult, sanitizeForTerminal } from '../core/index.js';
import type { Contract } from '../contract/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { CliError, EXIT, untilStopped } from './exit-codes.js';
import { writeFileAtomic } from './files.js';
import { withInRunQuality } from './in-run-quality.js';
import { apiKeyFromEnv, parseUrl } from './parse-flags.js';
import { renderClaims } from './render-claims.js';
import { parseFileFlags, readiedContracts } from './reproduce-files.js';
import { reproduceRepeats, runSide } from './reproduce-runs.js';

export interface ReproduceFlags {
  baselineUrl: string;
  optimizedUrl: string;
  repeats?: string;
  file?: string[];
  imageBaseUrl?: string;
  apiKeyEnv?: string;
  json?: string;
}

/** The receipt's evidence folder: beside the receipt, or a published site's root for a receipt in its `receipts/`. */
function evidenceDirOf(path: string): string {
  const dir = dirname(path);
  return !existsSync(join(dir, 'evidence')) && basename(dir) === 'receipts' ? dirname(dir) : dir;
}

/** The receipt, recomputed from its evidence, and each side's results; refused (exit 2, every refusal named) otherwise. */
async function checkedReceipt(path: string): Promise<{ receipt: Receipt; results: Record<'baseline' | 'optimized', ReceiptResult> }> {
  const read = await readBounded(path, LIMITS.inputFileBytes.max);
  if (!read.ok) throw new CliError(EXIT.usage, `${path}: ${read.problem}`);
  const again = await recomputeReceipt(read.bytes.toString('utf8'), evidenceDirOf(path), new Date().toISOString().slice(0, 10));
  if (!again.ok) throw new CliError(EXIT.usage, `receipt refused, nothing run:\n${again.refusals.map((r) => `  ${r.message}`).join('\n')}`);
  return { receipt: again.receipt, results: again.results };
}

/** The receipt as the builder gives it from `results`, in the published receipt's words, with every fact's figure in each run (per-level points included). */
function builtFrom(published: Receipt, results: Record<'baseline' | 'optimized', ReceiptResult>, quality: QualityScore | null) {
  return buildReceipt({
    ...results,
    quality,
    method: published.configurations.optimized.method,
    baselineMethod: published.configurations.baseline.method,
    title: published.title,
    generator: TOOL_VERSION,
    factSet: published.factSetVersion ?? 1,
    perLevelRuns: true,
  });
}

/** The published per-level points with their figure in every published run, rebuilt from the checked evidence (the receipt states run 1's). */
function publishedLevelRuns(published: Receipt, results: Record<'baseline' | 'optimized', ReceiptResult>): Receipt {
  const rebuilt = builtFrom(published, results, null);
  return rebuilt.ok ? withLevelRuns(published, rebuilt.receipt) : published;
}

/** The in-run score measured again, of the optimized server against the baseline's; null (and said) when it cannot be. */
async function scoredAgain(optimized: ReceiptResult, contract: Contract, receipt: Receipt, urls: { baseline: string; optimized: string }, apiKey?: string) {
  const states = receipt.facts.some((f) => f.id === 'optimized.quality' && f.value !== null);
  if (!states || receipt.modality !== undefined) return null;
  try {
    const scored = await withInRunQuality(optimized as SweepResult, contract, { baseUrl: urls.optimized, apiKey }, urls.baseline);
    return scored.quality ?? null;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    process.stderr.write(`${sanitizeForTerminal(err.message)}\n`);
    return null;
  }
}

/** The receipt the reader's runs give, built by the receipt builder with the published receipt's words and fact set. */
async function reproduced(
  published: Receipt,
  results: Record<'baseline' | 'optimized', ReceiptResult>,
  f: ReproduceFlags,
  urls: { baseline: string; optimized: string },
  apiKey: string | undefined,
): Promise<Receipt> {
  const contracts = await readiedContracts(results, urls, { repeats: f.repeats, files: parseFileFlags(f.file ?? []), imageBaseUrl: f.imageBaseUrl });
  const runs = await untilStopped(async (signal) => ({
    baseline: await runSide('baseline', contracts.baseline, apiKey, signal, results.baseline),
    optimized: await runSide('optimized', contracts.optimized, apiKey, signal, results.optimized),
  }));
  const quality = await scoredAgain(runs.optimized, contracts.optimized, published, urls, apiKey);
  const built = builtFrom(published, runs, quality);
  if (!built.ok)
    throw new CliError(EXIT.usage, `the reproduction makes no receipt, so no claim is checked:\n${built.problems.map((p) => `  ${p}`).join('\n')}`);
  for (const side of ['baseline', 'optimized'] as const)
    if (built.receipt.configurations[side].workloadHash !== published.configurations[side].workloadHash)
      throw new CliError(EXIT.usage, `${side}: the rerun's workload hash is not the receipt's: it is not the receipt's experiment`);
  return built.receipt;
}

export async function reproduceReceipt(path: string, f: ReproduceFlags): Promise<{ claims: ClaimCheck[]; receipt: Receipt; again: Receipt }> {
  // Every flag is checked before anything is read or run: a URL carrying credentials is refused as everywhere else.
  const urls = { baseline: parseUrl('--baseline-url', f.baselineUrl), optimized: parseUrl('--optimized-url', f.optimizedUrl) };
  if (f.repeats !== undefined) reproduceRepeats(undefined, f.repeats);
  parseFileFlags(f.file ?? []);
  const apiKey = apiKeyFromEnv(f.apiKeyEnv, 'GOODPUT_API_KEY');
  const { receipt, results } = await checkedReceipt(path);
  const again = await reproduced(receipt, results, f, urls, apiKey);
  return { claims: reproduceClaims(publishedLevelRuns(receipt, results), again), receipt, again };
}

export function registerReproduceCommand(program: Command): void {
  program
    .command('reproduce')
    .description("check a receipt: rerun both sides' contracts on servers you name and say, claim by claim, whether each published figure holds")
    .argument('<receipt>', "a receipt file (goodput receipt create), its evidence beside it, or a published site's receipts/<id>.json")
    .requiredOption('--baseline-url <url>', "the server to run the baseline's contract on")
    .requiredOption('--optimized-url <url>', 'the server to run the optimized contract on (its quality score is measured against --baseline-url)')
    .option('--repeats <n>', "runs per side (1, or 3 to 20; default the count the receipt's runs declared)")
    .option(
      '--file <name=path>',
      'your copy of a file the receipt withholds (corpus, tokenizer; baseline.NAME or optimized.NAME for one side), checked by SHA-256 against its evidence before anything runs; repeatable',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option(
      '--image-base-url <url>',
      "for a receipt of images sent by URL to a server not on this machine: http://HOST:PORT of this machine it can reach (goodput's image server listens there)",
    )
    .option('--api-key-env <name>', 'environment variable holding the API key (default GOODPUT_API_KEY)')
    .option('--json <file|->', 'write the claims as JSON to a file, or to stdout with -')
    .action(async (path: string, f: ReproduceFlags) => {
      const { claims, receipt, again } = await reproduceReceipt(path, f);
      const failing = claims.filter((c) => !c.holds);
      const doc = { receipt: receipt.id, holds: failing.length === 0, claims, levels: levelVerdicts(claims), contractHashes: hashes(receipt, again) };
      if (f.json !== undefined && f.json !== '-') await writeFileAtomic(f.json, JSON.stringify(doc, null, 2) + '\n');
      process.stdout.write(f.json === '-' ? JSON.stringify(doc, null, 2) + '\n' : renderClaims(receipt.id, claims, process.stdout.isTTY === true) + '\n');
      if (failing.length > 0) throw new CliError(EXIT.notReproduced, '');
    });
}

/** Each side's contract hash as published and as rerun: equal unless --repeats changed the declared count. */
const hashes = (a: Receipt, b: Receipt) =>
  Object.fromEntries(
    (['baseline', 'optimized'] as const).map((s) => [s, { published: a.configurations[s].contractHash, reproduced: b.configurations[s].contractHash }]),
  );
