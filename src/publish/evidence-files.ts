/**
 * A receipt's evidence on disk: each result and quality score file as the
 * exact JSON bytes the receipt's SHA-256 names, gzip-compressed beside the
 * receipt in `evidence/<sha256>.json.gz`. Reading one back checks its size,
 * its hash and its JSON (no key stated twice) before anything trusts it.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { WITHHELD_URL } from '../contract/index.js';
import { LIMITS, type PoolingResult, type SweepResult } from '../core/index.js';
import { type Refusal, refusal } from './refusal.js';
import { parseStrictJson } from './strict-json.js';

export const EVIDENCE_DIR = 'evidence';

export const evidencePath = (sha256: string): string => `${EVIDENCE_DIR}/${sha256}.json.gz`;

/** Where a run's signature (goodput run --sign) travels beside the evidence file it signs. */
export const signaturePath = (sha256: string): string => `${EVIDENCE_DIR}/${sha256}.dsse.json`;

/** A run signature's envelope is small: anything larger is not one. */
const SIGNATURE_BYTES = 64 * 1024;

/** The signature shipped beside evidence `sha256`, absent (null), or too large to be one. */
export async function loadEvidenceSignature(
  source: EvidenceSource,
  sha256: string,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; problem: string } | null> {
  const found = await evidenceBytes(source, signaturePath(sha256), SIGNATURE_BYTES);
  if (found === null) return null;
  return 'size' in found
    ? { ok: false, problem: `is ${found.size} bytes, more than a signature envelope (${SIGNATURE_BYTES})` }
    : { ok: true, bytes: found.gz };
}

export interface PackedEvidence {
  sha256: string;
  path: string;
  gz: Buffer;
}

/** The value's JSON bytes, their SHA-256 and the compressed file. */
export function packEvidence(value: unknown): PackedEvidence {
  const bytes = Buffer.from(JSON.stringify(value), 'utf8');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { sha256, path: evidencePath(sha256), gz: gzipSync(bytes, { level: 9 }) };
}

export type LoadedEvidence = { ok: true; value: unknown; gz: Buffer } | { ok: false; refusal: Refusal };

/** Where evidence files are: the folder beside a receipt, or files not yet written (by path). */
export type EvidenceSource = string | ReadonlyMap<string, Buffer>;

async function evidenceBytes(source: EvidenceSource, path: string, max: number = LIMITS.inputFileBytes.max): Promise<{ gz: Buffer } | { size: number } | null> {
  if (typeof source !== 'string') {
    const gz = source.get(path);
    if (gz === undefined) return null;
    return gz.length > max ? { size: gz.length } : { gz };
  }
  const file = join(source, path);
  const size = await stat(file).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) return null;
  return size > max ? { size } : { gz: await readFile(file) };
}

/** Reads `evidence/<sha256>.json.gz` from `source`; `field` names the reference in a refusal. */
export async function loadEvidence(source: EvidenceSource, sha256: string, field: string): Promise<LoadedEvidence> {
  const refuse = (rule: 'evidence-file' | 'evidence-hash' | 'no-duplicate-keys', why: string): LoadedEvidence => ({
    ok: false,
    refusal: refusal(rule, field, why),
  });
  const max = LIMITS.inputFileBytes.max;
  const found = await evidenceBytes(source, evidencePath(sha256));
  if (found === null) return refuse('evidence-file', `names ${evidencePath(sha256)}, which is not beside the receipt`);
  if ('size' in found)
    return refuse('evidence-file', `${evidencePath(sha256)} is ${found.size} bytes, above the limit of ${max} ${LIMITS.inputFileBytes.what}`);
  let bytes: Buffer;
  try {
    bytes = gunzipSync(found.gz, { maxOutputLength: max });
  } catch (err) {
    const tooBig = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError;
    return refuse(
      'evidence-file',
      tooBig
        ? `${evidencePath(sha256)} expands past the limit of ${max} ${LIMITS.inputFileBytes.what}`
        : `${evidencePath(sha256)} is not a gzip file (${(err as Error).message})`,
    );
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== sha256) return refuse('evidence-hash', `names ${sha256}, but the file's content hashes to ${actual}; the evidence was edited`);
  const parsed = parseStrictJson(bytes.toString('utf8'));
  if (!parsed.ok) {
    const duplicate = parsed.problem.endsWith('[rule: no-duplicate-keys]');
    return refuse(duplicate ? 'no-duplicate-keys' : 'evidence-file', `${evidencePath(sha256)} ${parsed.problem.replace(/ \[rule: [a-z-]+\]$/, '')}`);
  }
  return { ok: true, value: parsed.value, gz: found.gz };
}

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : null);

/** A fleet target's address withheld, its place in the fleet kept (the breakdown still tells the targets apart). */
const withheldTarget = (_url: string, i: number): string => `${WITHHELD_URL}#target-${i + 1}`;

/** A contract's fleet targets and pool endpoints withheld (each target keeps its place: the first is server.url), their count, routing, roles and GPUs kept. */
function withheldParts(server: Loose): Loose {
  const fleet = obj(server.fleet);
  const pools = obj(server.pools);
  const each = <T>(v: unknown, f: (x: unknown, i: number) => T) => (Array.isArray(v) ? v.map(f) : v);
  return {
    ...(fleet === null ? {} : { fleet: { ...fleet, targets: each(fleet.targets, (t, i) => withheldTarget(String(t), i + 1)) } }),
    ...(pools === null ? {} : { pools: { ...pools, roles: each(pools.roles, (r) => (obj(r) === null ? r : { ...(r as Loose), url: WITHHELD_URL })) } }),
  };
}

/** A result's contract with its locations withheld: the server's address (and its fleet's and pools'), the baseline's, the paths of hashed files (none of them hashed). */
function publicContract<C>(contract: C): C {
  const noPath = (v: unknown) => (obj(v) !== null && 'path' in (v as Loose) ? { ...(v as Loose), path: 'withheld' } : v);
  const c = obj(contract);
  const server = obj(c?.server);
  const model = obj(c?.model);
  const workload = obj(c?.workload);
  const quality = obj(c?.quality);
  return (
    c === null
      ? contract
      : {
          ...c,
          ...(server === null
            ? {}
            : { server: { url: WITHHELD_URL, ...('endpoint' in server ? { endpoint: server.endpoint } : {}), ...withheldParts(server) } }),
          ...(model === null ? {} : { model: { ...model, ...('tokenizer' in model ? { tokenizer: noPath(model.tokenizer) } : {}) } }),
          ...(workload === null ? {} : { workload: { ...workload, prompts: noPath(workload.prompts) } }),
          ...(quality === null || !('baselineUrl' in quality) ? {} : { quality: { ...quality, baselineUrl: WITHHELD_URL } }),
        }
  ) as C;
}

/** The public copy of an embeddings or rerank result: its address, command, the tokenizer's route and the metrics address withheld; everything measured kept. */
export function publicPoolingResult(result: PoolingResult): PoolingResult {
  const hide = <T extends PoolingResult['run']>(run: T): T => ({
    ...run,
    url: WITHHELD_URL,
    command: 'withheld',
    tokenizer: { ...run.tokenizer, label: `withheld (${run.tokenizer.exact ? 'exact' : 'approximate'})` },
  });
  const levels = (ls: PoolingResult['levels']) => ls.map((l) => (l.serverTruth ? { ...l, serverTruth: { ...l.serverTruth, metricsUrl: WITHHELD_URL } } : l));
  return {
    ...result,
    run: hide(result.run),
    levels: levels(result.levels),
    ...(result.contract === undefined ? {} : { contract: publicContract(result.contract) }),
    ...(result.repeats === undefined ? {} : { repeats: result.repeats.map((x) => ({ ...x, run: hide(x.run), levels: levels(x.levels) })) }),
  };
}

/**
 * The public copy of a text-generation result: the server's address, the
 * command line, the tokenizer's route and local file paths withheld. None of them is in the contract
 * hash, so the copy still verifies; everything measured is kept.
 */
export function publicTextResult(result: SweepResult): SweepResult {
  const contract = publicContract(result.contract);
  const hide = <T extends SweepResult['run']>(run: T): T => ({
    ...run,
    url: WITHHELD_URL,
    command: 'withheld',
    ...(run.serverMetrics?.url ? { serverMetrics: { ...run.serverMetrics, url: WITHHELD_URL } } : {}),
    ...(run.fleet ? { fleet: { ...run.fleet, urls: run.fleet.urls.map(withheldTarget) } } : {}),
  });
  const levels = (ls: SweepResult['levels']) =>
    ls.map((l) => {
      const own = {
        ...l,
        ...(l.serverTruth ? { serverTruth: { ...l.serverTruth, metricsUrl: WITHHELD_URL } } : {}),
        ...(l.targets ? { targets: l.targets.map((t, i) => ({ ...t, url: withheldTarget(t.url, i) })) } : {}),
      };
      // A disaggregated server's pools are addresses too.
      return l.disagg ? { ...own, disagg: { ...l.disagg, roles: l.disagg.roles.map((r) => ({ ...r, metricsUrl: WITHHELD_URL })) } } : own;
    });
  // The tokenizer's label names its route or file (`POST http://127.0.0.1:…/tokenize`); its kind says what a reader needs.
  const tokenizer = result.tokenizer === undefined ? {} : { tokenizer: { ...result.tokenizer, label: `withheld (${result.tokenizer.kind})` } };
  return {
    ...result,
    ...tokenizer,
    run: hide(result.run),
    levels: levels(result.levels),
    ...(contract === undefined ? {} : { contract }),
    ...(result.repeats === undefined ? {} : { repeats: result.repeats.map((x) => ({ ...x, run: hide(x.run), levels: levels(x.levels) })) }),
  };
}
