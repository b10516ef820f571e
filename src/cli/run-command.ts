/**
 * `goodput run goodput.yaml`: runs a contract and writes one result that
 * embeds the resolved contract, its hash, the tool and engine versions and the
 * exact command. Raw records (`--raw`) carry the matrix cell of each request.
 * An embeddings or rerank contract runs through the same steps with its
 * kind's runner, table and exit rule (runPoolingAndReport), signed and stored
 * as a text run is, and a rerun shows it beside its original level by level.
 */
import { type KeyObject, randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { type Contract, type RunPolicy, combinePoolingRuns, combineRepeats, isPoolingEndpoint, runContract, runPoolingContract } from '../contract/index.js';
import { type PoolingResult, type SweepResult, poolingResultSchema, sanitizeForTerminal, sweepResultSchema } from '../core/index.js';
import { packEvidence, publicResult, signedResult } from '../publish/index.js';
import { asUsageErrors, loadCheckedContract } from './contract-errors.js';
import { signingKey } from './keys-command.js';
import { CliError, EXIT, exitCodeOf, invalidLevelsLine, untilStopped } from './exit-codes.js';
import { sayWritten, writeFileAtomic, writeRecords } from './files.js';
import { apiKeyFromEnv, badFlag, parseUrl, redactedCommand } from './parse-flags.js';
import { type SaveSession, type SaveTarget, addSaveOptions, discardIfNothingFinished, saveTarget, startSaving } from './save-run.js';
import type { SweepSpecInput } from '../runner/index.js';
import { liveWarnings, progressReporter } from './progress.js';
import { renderContractResult } from './render-contract.js';
import { inRunQualityLine, withInRunQuality } from './in-run-quality.js';
import { SetSeal } from './set-seal.js';
import { AfterMeasuring, writeResult } from './after-measuring.js';
import { poolingProgress, renderPoolingResult } from './pooling-view.js';
import { wholeAnswerExit } from './kind-view.js';
import { type RunFlags, repeatCount } from './run-flags.js';
import { addHookOptions, cellHooks, hooksFromFlags } from './hook-flags.js';

/** Adds the flags `run` and `rerun` share. */
export function addRunOptions(cmd: Command): Command {
  return addHookOptions(addSaveOptions(cmd))
    .option('--url <url>', 'server base URL, overriding server.url (not part of the contract hash)')
    .option('--api-key-env <name>', 'environment variable holding the API key (default: server.apiKeyEnv, else GOODPUT_API_KEY)')
    .option('--json <file|->', 'write the result JSON to a file, or to stdout with -')
    .option('--raw <file>', 'write every request record as JSON lines (with its matrix cell), level by level')
    .option(
      '--sign',
      "sign the --json result with the data folder's publisher key (goodput keys create), beside it as FILE.dsse.json; with --repeats, the set too (a manifest signed before the first run, then each run as it ends)",
    )
    .option('--key <file>', 'sign with this Ed25519 private key file instead')
    .option(
      '--quality-baseline <url>',
      'after the runs, measure the quality score of this server against the baseline server at <url> (overrides quality.baselineUrl; the hash records that the score is measured in the run)',
    );
}

/** The key `--sign` or `--key` names, for a result that has a file to sign beside; undefined without either. */
async function signerOf(flags: RunFlags): Promise<KeyObject | undefined> {
  if (flags.sign !== true && flags.key === undefined) return undefined;
  const flag = flags.key === undefined ? '--sign' : '--key';
  if (flags.json === undefined || flags.json === '-') throw badFlag(flag, 'signs the result file: give --json FILE');
  return signingKey(flag, flags.key);
}

/** Where a run is stored; a repeat set is not one stored run, and with a store configured that is said rather than left for the page to miss. */
function repeatsTarget(repeats: number, flags: RunFlags, command: string): SaveTarget | null {
  const target = saveTarget(flags, false, command);
  if (repeats <= 1) return target;
  if (target) process.stderr.write(`not stored: a repeat set of ${repeats} runs is not one run (keep its result with --json)\n`);
  return null;
}

/** Repeated runs are one result with every run's records in it; a raw file or a stored run is one run. */
function refuseOneRunOutputs(repeats: number, flags: RunFlags): void {
  if (repeats > 1 && flags.raw !== undefined) throw badFlag('--raw', "cannot be combined with --repeats: every run's records are kept in the --json result");
  if (repeats > 1 && flags.save === true)
    throw badFlag('--save', 'cannot be combined with --repeats: a stored run is one run; keep the repeated runs with --json');
}

/**
 * Signed over the result file's exact bytes, beside it: who stands behind this result (goodput keys verify-result
 * checks it). The published copy's hash is signed too, so a receipt can ship the signature beside the evidence it covers.
 */
async function signBeside(after: AfterMeasuring, wrote: string | undefined, result: SweepResult | PoolingResult, signer: KeyObject | undefined) {
  if (wrote === undefined || signer === undefined) return;
  await after.step('signing the result', async () => {
    const json = JSON.stringify(result, null, 2) + '\n';
    const read = isPoolingEndpoint(result.run.endpoint) ? poolingResultSchema.parse(JSON.parse(json)) : sweepResultSchema.parse(JSON.parse(json));
    const published = packEvidence(publicResult(read)).sha256;
    await writeFileAtomic(`${wrote}.dsse.json`, signedResult(Buffer.from(json, 'utf8'), signer, published));
  });
}

/**
 * Runs a contract with progress on stderr, writes the files and prints the report. Returns the exit code and the result.
 * `policy`: the pacing and retries to run under when not the contract's own (a rerun's, as its result recorded them).
 */
export async function runAndReport(contract: Contract, flags: RunFlags, command: string, policy?: RunPolicy): Promise<{ code: number; result: SweepResult }> {
  if (flags.json !== undefined && flags.json === flags.raw) throw badFlag('--raw', 'must be a different file from --json');
  const repeats = repeatCount(contract, flags);
  const signer = await signerOf(flags);
  // The count is declared up front in the hashed contract, so no run of the set can be dropped unseen.
  const qualityBaseline = flags.qualityBaseline === undefined ? contract.quality.baselineUrl : parseUrl('--quality-baseline', flags.qualityBaseline);
  const counted: Contract = repeats > 1 ? { ...contract, repeats } : contract;
  const declared: Contract = qualityBaseline === undefined ? counted : { ...counted, quality: { ...counted.quality, baselineUrl: qualityBaseline } };
  const seal = new SetSeal(repeats, signer);
  refuseOneRunOutputs(repeats, flags);
  const url = flags.url === undefined ? undefined : parseUrl('--url', flags.url);
  const apiKey = apiKeyFromEnv(flags.apiKeyEnv, contract.server.apiKeyEnv ?? 'GOODPUT_API_KEY');
  const serverHooks = cellHooks(hooksFromFlags(flags, contract.load.levels));
  return untilStopped(async (signal) => {
    const progress = progressReporter(process.stderr, { warnings: liveWarnings(flags.json === '-') });
    const target = repeatsTarget(repeats, flags, command);
    const saved: { session: SaveSession | null } = { session: null };
    let first = true;
    // A stored run is one sweep: a one-cell contract is stored whole (contract and hash with it); a matrix is not one run.
    const onCellStart = async (_i: number, total: number, spec: SweepSpecInput) => {
      if (!target || saved.session) return;
      if (total === 1) saved.session = await startSaving(spec, target);
      else if (flags.save === true)
        throw badFlag('--save', `this contract is a matrix of ${total} cells, which is not one stored run; keep its result with --json`);
      else process.stderr.write(`not stored: a matrix of ${total} cells is not one run (keep its result with --json)\n`);
    };
    const runOnce = () =>
      asUsageErrors(() =>
        runContract(declared, {
          url,
          apiKey,
          command,
          signal,
          serverHooks,
          onCellStart,
          ...(policy === undefined ? {} : { policy }),
          onPrepared: seal.onPrepared,
          onCell: (i, total, label) => process.stderr.write(`cell ${i + 1}/${total}: ${sanitizeForTerminal(label)}\n`),
          onEvent: (e) => {
            progress(e);
            saved.session?.onEvent(e);
          },
          beforeLevel: async () => {
            await saved.session?.beforeLevel();
          },
          afterLevel: async (level, records, cell) => {
            if (flags.raw)
              await writeRecords(
                flags.raw,
                records.map((r) => ({ ...r, cell })),
                first,
              );
            first = false;
            await saved.session?.afterLevel(level, records);
          },
        }),
      ).catch(async (err: unknown) => {
        await saved.session?.fail(err);
        throw err;
      });
    const runs: SweepResult[] = [];
    for (let i = 0; i < repeats; i++) {
      if (repeats > 1) process.stderr.write(`run ${i + 1} of ${repeats}\n`);
      const one = await runOnce();
      runs.push(seal.place(one, i));
      if (one.run.status !== 'complete' || signal.aborted) break;
    }
    const combined = seal.seal(combineRepeats(runs));
    // A stop is the user's when a signal came; otherwise our own side went away (a lost client thread).
    const byUser = signal.aborted;
    if (await discardIfNothingFinished(combined, saved.session)) return { code: byUser ? EXIT.stopped : EXIT.clientStopped, result: combined };
    // The score is measured after the last run, never in measured time, and only of runs that completed.
    // Each step after measuring runs even when one before it failed: no late failure costs the runs.
    const complete = runs.length === repeats && combined.run.status === 'complete' && !signal.aborted;
    const after = new AfterMeasuring();
    const scoring = qualityBaseline !== undefined && complete;
    // The runs are in their file before the score is measured: a baseline that hangs, or a stop meanwhile, cannot cost them.
    if (scoring && flags.json !== undefined && flags.json !== '-') {
      const file = flags.json;
      await after.step('writing the result file', () => writeFileAtomic(file, JSON.stringify(combined, null, 2) + '\n'));
    }
    const scored = !scoring
      ? undefined
      : await after.step('the quality score', () =>
          withInRunQuality(combined, declared, { baseUrl: url ?? declared.server.url, apiKey }, qualityBaseline as string),
        );
    const result = scored ?? combined;
    const qualityLine = qualityBaseline === undefined ? null : inRunQualityLine(result, qualityBaseline);
    const wrote = await writeResult(
      after,
      result,
      flags.json,
      () => renderContractResult(result, process.stdout.isTTY === true) + (qualityLine === null ? '' : `\n${qualityLine}`),
    );
    await signBeside(after, wrote, result, signer);
    sayWritten([wrote, first ? undefined : flags.raw]);
    await after.step('storing the run', () => saved.session?.finish(result, flags));
    const status = (runs.find((r) => r.run.status !== 'complete') ?? result).run.status;
    // Every level of every cell of every run: a matrix or repeats with one valid level is not "no valid level".
    const levels = runs.flatMap((r) => (r.matrix ? r.matrix.cells.flatMap((c) => c.levels) : r.levels));
    const invalid = invalidLevelsLine(levels);
    if (invalid !== null) process.stderr.write(`${invalid}\n`);
    const measured = runs.length < repeats && status === 'complete' ? EXIT.stopped : exitCodeOf({ run: { status }, levels }, byUser);
    return { code: after.code(measured), result };
  });
}

/** What `run` of a pooling contract refuses by name rather than ignores: a score, since it generates no text. */
function refuseTextFlags(flags: RunFlags): void {
  if (flags.qualityBaseline !== undefined) throw badFlag('--quality-baseline', 'an embeddings or rerank contract generates no text to score');
  if (flags.resetCacheBetween !== undefined)
    throw badFlag('--reset-cache-between', "empties a generation engine's prefix cache: an embeddings or rerank contract has none to empty");
  if (flags.profileLevel !== undefined) throw badFlag('--profile-level', 'profiles text generation: an embeddings or rerank contract is not profiled yet');
}

/**
 * Runs a pooling contract with progress on stderr, writes the files and prints the table, signs the result and its
 * set as a text run's are (set-seal.ts) and stores a single run as `sweep --save` stores a pooling sweep. Returns the
 * exit code and the result.
 */
export async function runPoolingAndReport(contract: Contract, flags: RunFlags, command: string): Promise<{ code: number; result: PoolingResult }> {
  refuseTextFlags(flags);
  if (flags.json !== undefined && flags.json === flags.raw) throw badFlag('--raw', 'must be a different file from --json');
  const repeats = repeatCount(contract, flags);
  const signer = await signerOf(flags);
  refuseOneRunOutputs(repeats, flags);
  const declared: Contract = repeats > 1 ? { ...contract, repeats } : contract;
  const seal = new SetSeal(repeats, signer);
  const url = flags.url === undefined ? undefined : parseUrl('--url', flags.url);
  const apiKey = apiKeyFromEnv(flags.apiKeyEnv, contract.server.apiKeyEnv ?? 'GOODPUT_API_KEY');
  let first = true;
  const set = randomBytes(8).toString('hex');
  return untilStopped(async (signal) => {
    const target = repeatsTarget(repeats, flags, command);
    const saved: { session: SaveSession | null } = { session: null };
    const runs: PoolingResult[] = [];
    for (let i = 0; i < repeats; i++) {
      // A signed set is named by its manifest, signed once the run is prepared: no random id is shown for it.
      if (repeats > 1) process.stderr.write(`run ${i + 1} of ${repeats}${seal.signed ? '' : ` (set ${set})`}\n`);
      const one = await asUsageErrors(() =>
        runPoolingContract(declared, {
          url,
          apiKey,
          command,
          signal,
          onPrepared: async (hash, spec) => {
            await seal.onPrepared(hash);
            if (target !== null && saved.session === null) saved.session = await startSaving(spec, target);
          },
          onEvent: (e) => {
            poolingProgress(e);
            saved.session?.onEvent(e);
          },
          beforeLevel: async () => {
            await saved.session?.beforeLevel();
          },
          afterLevel: async (records, level) => {
            if (flags.raw) await writeRecords(flags.raw, records, first);
            first = false;
            await saved.session?.afterLevel(level, records);
          },
        }),
      ).catch(async (err: unknown) => {
        await saved.session?.fail(err);
        throw err;
      });
      runs.push(seal.placePooling(one, i));
      if (one.run.status !== 'complete' || signal.aborted) break;
    }
    const result = seal.seal(combinePoolingRuns(runs));
    const worst = runs.map(wholeAnswerExit).find((c) => c !== EXIT.ok) ?? EXIT.ok;
    const measured = runs.length < repeats && worst === EXIT.ok ? EXIT.stopped : worst;
    // A stored run with no finished level is removed, as a stopped sweep's is; without a store the result is written as before.
    if (saved.session !== null && (await discardIfNothingFinished(result, saved.session))) return { code: measured, result };
    // Each step runs even when one before it failed: a late failure never costs the runs.
    const after = new AfterMeasuring();
    const contractLine = result.contractHash ? `\ncontract ${result.contractHash.slice(0, 12)}${runs.length > 1 ? `, ${runs.length} runs` : ''}` : '';
    const wrote = await writeResult(after, result, flags.json, () => renderPoolingResult(result, process.stdout.isTTY === true) + contractLine);
    await signBeside(after, wrote, result, signer);
    sayWritten([wrote, first ? undefined : flags.raw]);
    await after.step('storing the run', () => saved.session?.finish(result, flags));
    return { code: after.code(measured), result };
  });
}

const f1 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(1));

/** A rerun beside its original: the contract hashes, then each level's items/s and latency p95 on both sides. */
export function renderPoolingRerun(a: PoolingResult, b: PoolingResult, names: [string, string]): string {
  const same = a.contractHash !== undefined && a.contractHash === b.contractHash;
  const out = [
    same
      ? `same contract (${a.contractHash?.slice(0, 12)})`
      : `contracts differ: ${a.contractHash?.slice(0, 12) ?? 'none'} vs ${b.contractHash?.slice(0, 12) ?? 'none'}`,
  ];
  const items = a.run.endpoint === 'rerank' ? 'documents/s' : 'inputs/s';
  out.push(`concurrency  ${items} (${names[0]} → ${names[1]})  latency p95 ms`);
  for (const l of a.levels) {
    const m = b.levels.find((x) => x.concurrency === l.concurrency);
    out.push(`${String(l.concurrency).padStart(11)}  ${f1(l.itemsPerS)} → ${f1(m?.itemsPerS)}  ${f1(l.latencyMs?.p95)} → ${f1(m?.latencyMs?.p95)}`);
  }
  return out.join('\n');
}

export function registerRunCommand(program: Command): void {
  addRunOptions(program.command('run').description('run a benchmark contract (goodput.yaml) and write a result that can be rerun'))
    .option(
      '--repeats <n>',
      "run the contract n times (1, or 3 to 20; default the contract's repeats, else 1), declared in the result's contract, every run kept in one result so a receipt can state the run-to-run spread",
    )
    .argument('<goodput.yaml>', 'the contract file')
    .action(async (path: string, flags: RunFlags) => {
      const contract = await loadCheckedContract(path);
      const command = redactedCommand(['goodput', ...process.argv.slice(2)]);
      const { code } = isPoolingEndpoint(contract.server.endpoint)
        ? await runPoolingAndReport(contract, flags, command)
        : await runAndReport(contract, flags, command);
      if (code !== EXIT.ok) throw new CliError(code, '');
    });
}
