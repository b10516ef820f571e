/**
 * What a receipt withholds and a reader gives back to `goodput reproduce`:
 *
 * - files (`--file NAME=PATH`, repeatable): the evidence names a corpus,
 *   tokenizer or trace by its SHA-256 alone (its path is a location, and
 *   private). The reader's copy is hashed before anything runs and must be that
 *   file; NAME is `corpus`, `tokenizer` or `trace`, or `baseline.NAME` /
 *   `optimized.NAME` for one side when the sides read different files.
 * - the image base URL (`--image-base-url`): images by URL are fetched from
 *   goodput's image server; a server that is not on this machine needs an
 *   address of this machine it can reach. The images themselves are drawn
 *   from the contract's seed, and the receipt check has already compared
 *   them with the files each level of the evidence names.
 */
import type { Contract } from '../contract/index.js';
import { isLoopback } from '../client/index.js';
import type { ReceiptResult } from '../publish/index.js';
import { readHashed, WorkloadError } from '../workload/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { imageBaseUrlFromFlags } from './image-flags.js';
import { badFlag } from './parse-flags.js';
import { rerunnable } from './reproduce-runs.js';

/** What the evidence's copy puts where a file's path was (publish/evidence-files.ts). */
const WITHHELD = 'withheld';

/** The files a contract can read, by the name `--file` gives them. */
const FILES = {
  corpus: { field: 'workload.prompts', of: (c: Contract) => c.workload.prompts as { path?: string; sha256?: string } },
  tokenizer: { field: 'model.tokenizer', of: (c: Contract) => c.model.tokenizer as { path?: string; sha256?: string } },
  trace: { field: 'load.pattern', of: (c: Contract) => c.load.pattern as { path?: string; sha256?: string } },
} as const;
type FileName = keyof typeof FILES;
const SIDES = ['baseline', 'optimized'] as const;

/** `--file NAME=PATH` values, by NAME (each given once). */
export function parseFileFlags(values: readonly string[]): Map<string, string> {
  const names = [...Object.keys(FILES), ...SIDES.flatMap((s) => Object.keys(FILES).map((n) => `${s}.${n}`))];
  const files = new Map<string, string>();
  for (const v of values) {
    const at = v.indexOf('=');
    const name = at < 0 ? v : v.slice(0, at);
    if (at < 1 || at === v.length - 1 || !names.includes(name))
      throw badFlag(
        '--file',
        `'${v.slice(0, 200)}' must be NAME=PATH, NAME one of ${Object.keys(FILES).join(', ')} (or baseline.NAME, optimized.NAME for one side)`,
      );
    if (files.has(name)) throw badFlag('--file', `${name} is given twice`);
    files.set(name, v.slice(at + 1));
  }
  return files;
}

/** The names of the files a contract reads that the receipt withholds. */
export function withheldFiles(c: Contract): FileName[] {
  return (Object.keys(FILES) as FileName[]).filter((name) => FILES[name].of(c).path === WITHHELD);
}

/** One side's contract with each withheld file replaced by the reader's copy, checked by SHA-256 first; refused naming the file otherwise. */
export async function restoreFiles(side: (typeof SIDES)[number], c: Contract, given: ReadonlyMap<string, string>): Promise<Contract> {
  let out = c;
  for (const name of withheldFiles(c)) {
    const { field, of } = FILES[name];
    const stated = of(c).sha256;
    const path = given.get(`${side}.${name}`) ?? given.get(name);
    if (path === undefined)
      throw new CliError(
        EXIT.usage,
        `${side}: contract.${field}.path: the receipt withholds the ${name} its contract reads (SHA-256 ${stated ?? 'not stated'}); give your copy with --file ${name}=PATH`,
      );
    if (stated === undefined)
      throw new CliError(EXIT.usage, `${side}: contract.${field}.sha256: is not stated, so no copy of the ${name} can be checked against it`);
    const read = await readHashed(path, name).catch((err: unknown) => {
      throw err instanceof WorkloadError ? badFlag('--file', err.message) : err;
    });
    if (read.sha256 !== stated)
      throw badFlag(
        '--file',
        `${name}=${path} hashes to ${read.sha256}, but the receipt's ${side} run read ${stated} (contract.${field}.sha256): it is not the file the receipt measured`,
      );
    out = withPath(out, name, path);
  }
  return out;
}

function withPath(c: Contract, name: FileName, path: string): Contract {
  if (name === 'corpus') return { ...c, workload: { ...c.workload, prompts: { ...c.workload.prompts, path } as Contract['workload']['prompts'] } };
  if (name === 'tokenizer') return { ...c, model: { ...c.model, tokenizer: { ...c.model.tokenizer, path } as Contract['model']['tokenizer'] } };
  return { ...c, load: { ...c.load, pattern: { ...c.load.pattern, path } as Contract['load']['pattern'] } };
}

/** Every `--file` given must be one a side withholds: a name nothing reads is a mistake, not a no-op. */
export function unusedFiles(given: ReadonlyMap<string, string>, contracts: Record<(typeof SIDES)[number], Contract>): void {
  for (const name of given.keys()) {
    const [side, file] = name.includes('.') ? (name.split('.') as [(typeof SIDES)[number], FileName]) : [null, name as FileName];
    const sides = side === null ? SIDES : [side];
    if (!sides.some((s) => withheldFiles(contracts[s]).includes(file)))
      throw badFlag('--file', `${name}: ${side === null ? 'no side' : `the ${side} side`} of this receipt reads a withheld ${file}`);
  }
}

/** The contract's image base URL for the reader's server: --image-base-url, or none for a server on this machine. */
export function restoreImageBaseUrl(side: string, c: Contract, flag: string | undefined): Contract {
  const images = (c.workload.images ?? []).find((i) => i !== null) ?? null;
  if (images?.delivery !== 'url') return c;
  const base = imageBaseUrlFromFlags({ imageBaseUrl: flag }, images);
  if (base === null && !isLoopback(new URL(c.server.url).hostname))
    throw new CliError(
      EXIT.usage,
      `${side}: the receipt's images were sent by URL and its image base URL is withheld; the server at ${new URL(c.server.url).host} is not on this machine, so give --image-base-url http://HOST:PORT, an address of this machine it can reach`,
    );
  return base === null ? c : { ...c, server: { ...c.server, imageBaseUrl: base } };
}

/** What the reader gives reproduce besides the servers. */
export interface Restored {
  repeats?: string;
  files: ReadonlyMap<string, string>;
  imageBaseUrl?: string;
}

/** Both sides' contracts readied to run on the reader's servers, every withheld file and address given back and checked; refused before anything runs otherwise. */
export async function readiedContracts(
  results: Record<(typeof SIDES)[number], ReceiptResult>,
  urls: Record<(typeof SIDES)[number], string>,
  r: Restored,
): Promise<Record<(typeof SIDES)[number], Contract>> {
  const at = {
    baseline: rerunnable('baseline', results.baseline, urls.baseline, urls.baseline, r.repeats),
    optimized: rerunnable('optimized', results.optimized, urls.optimized, urls.baseline, r.repeats),
  };
  unusedFiles(r.files, at);
  const byUrl = (c: Contract) => (c.workload.images ?? []).some((i) => i?.delivery === 'url');
  if (r.imageBaseUrl !== undefined && !byUrl(at.baseline) && !byUrl(at.optimized))
    throw badFlag('--image-base-url', "applies to a receipt whose images were sent by URL; this one's were not");
  const out = { ...at };
  for (const side of SIDES) out[side] = restoreImageBaseUrl(side, await restoreFiles(side, at[side], r.files), r.imageBaseUrl);
  return out;
}
