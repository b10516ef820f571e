/**
 * What a reader gives `goodput reproduce` back: each withheld file (checked by
 * SHA-256 against the evidence before anything runs, a wrong one refused
 * naming it and both hashes, a missing one refused naming it) and the image
 * base URL of a receipt of images sent by URL. The contract hash never moves.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractHash, contractSchema } from '../contract/index.js';
import type { ReceiptResult } from '../publish/index.js';
import type { Doc } from '../test-support/pooling-contract.js';
import { sha256Hex } from '../workload/index.js';
import { parseFileFlags, readiedContracts } from './reproduce-files.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-reproduce-files-'));
const CORPUS = '{"prompt":"one","max_tokens":8}\n{"prompt":"two","max_tokens":8}\n';
const corpusPath = join(dir, 'prompts.jsonl');
writeFileSync(corpusPath, CORPUS);
const otherPath = join(dir, 'other.jsonl');
writeFileSync(otherPath, '{"prompt":"three","max_tokens":8}\n');
const CORPUS_SHA = sha256Hex(CORPUS);
const OTHER_SHA = sha256Hex('{"prompt":"three","max_tokens":8}\n');

const WITHHELD_URL = 'http://withheld.invalid/';
/** A chat contract's public copy, resolved (every default stated), then edited by `edit`. */
const side = (edit: (c: Doc) => void = () => {}): ReceiptResult => {
  const c: Doc = {
    version: 1,
    server: { url: WITHHELD_URL, endpoint: 'chat' },
    model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
    workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, requestsPerLevel: 4, warmup: 1 },
    load: { levels: [1, 2] },
    slo: { ttftMs: { p: 95, max: 500 } },
    hardware: { label: 'SimGPU 80GB', gpuHourlyUsd: 2.5, priceAsOf: '2026-06-01' },
  };
  edit(c);
  return { contract: contractSchema.parse(c) } as unknown as ReceiptResult;
};
const withCorpus = (sha = CORPUS_SHA) =>
  side((c) => {
    c.workload.prompts = { kind: 'jsonl', path: 'withheld', sha256: sha };
    c.workload.outputTokens = 'corpus';
  });
const byUrl = () => side((c) => (c.workload.images = { perRequest: 1, width: 64, height: 64, delivery: 'url' }));

const LOCAL = { baseline: 'http://127.0.0.1:9000', optimized: 'http://127.0.0.1:9001' };
const ready = (results: Record<'baseline' | 'optimized', ReceiptResult>, files: string[], more: { imageBaseUrl?: string; urls?: typeof LOCAL } = {}) =>
  readiedContracts(results, more.urls ?? LOCAL, { files: parseFileFlags(files), imageBaseUrl: more.imageBaseUrl });

describe('withheld files given back with --file', () => {
  it("runs the reader's copy when its SHA-256 is the evidence's, keeping the contract hash", async () => {
    const results = { baseline: withCorpus(), optimized: withCorpus() };
    const c = await ready(results, [`corpus=${corpusPath}`]);
    for (const s of ['baseline', 'optimized'] as const) {
      expect(c[s].workload.prompts).toMatchObject({ kind: 'jsonl', path: corpusPath, sha256: CORPUS_SHA });
      expect(contractHash(c[s])).toBe(contractHash(contractSchema.parse(results[s].contract)));
    }
  });

  it('refuses a file that is not the one the receipt measured, naming it and both hashes', async () => {
    await expect(ready({ baseline: withCorpus(), optimized: withCorpus() }, [`corpus=${otherPath}`])).rejects.toThrow(
      `--file: corpus=${otherPath} hashes to ${OTHER_SHA}, but the receipt's baseline run read ${CORPUS_SHA} (contract.workload.prompts.sha256): it is not the file the receipt measured`,
    );
  });

  it('refuses a withheld file not given, naming it', async () => {
    await expect(ready({ baseline: withCorpus(), optimized: withCorpus() }, [])).rejects.toThrow(
      `baseline: contract.workload.prompts.path: the receipt withholds the corpus its contract reads (SHA-256 ${CORPUS_SHA}); give your copy with --file corpus=PATH`,
    );
  });

  it('takes a file for one side when the sides read different ones', async () => {
    const c = await ready({ baseline: withCorpus(), optimized: withCorpus(OTHER_SHA) }, [`corpus=${corpusPath}`, `optimized.corpus=${otherPath}`]);
    expect(c.baseline.workload.prompts).toMatchObject({ path: corpusPath });
    expect(c.optimized.workload.prompts).toMatchObject({ path: otherPath });
  });

  it('refuses a file nothing reads, an unreadable one, a malformed flag and a name given twice', async () => {
    await expect(ready({ baseline: side(), optimized: side() }, [`tokenizer=${corpusPath}`])).rejects.toThrow(
      '--file: tokenizer: no side of this receipt reads a withheld tokenizer',
    );
    await expect(ready({ baseline: withCorpus(), optimized: withCorpus() }, [`corpus=${join(dir, 'absent.jsonl')}`])).rejects.toThrow(
      /^--file: corpus .*absent\.jsonl: cannot read \(ENOENT\)$/,
    );
    expect(() => parseFileFlags(['prompts.jsonl'])).toThrow(
      "--file: 'prompts.jsonl' must be NAME=PATH, NAME one of corpus, tokenizer, trace (or baseline.NAME, optimized.NAME for one side)",
    );
    expect(() => parseFileFlags(['corpus=a', 'corpus=b'])).toThrow('--file: corpus is given twice');
  });
});

describe('the image base URL given back with --image-base-url', () => {
  it('is not needed for a server on this machine, and is restored when given', async () => {
    const local = await ready({ baseline: byUrl(), optimized: byUrl() }, []);
    expect(local.baseline.server.imageBaseUrl).toBeUndefined();
    const remote = { baseline: 'http://192.0.2.1:8000', optimized: 'http://192.0.2.2:8000' };
    const given = await ready({ baseline: byUrl(), optimized: byUrl() }, [], { urls: remote, imageBaseUrl: 'http://192.0.2.9:8090' });
    expect(given.optimized.server).toMatchObject({ url: remote.optimized, imageBaseUrl: 'http://192.0.2.9:8090' });
    expect(contractHash(given.optimized)).toBe(contractHash(contractSchema.parse(byUrl().contract)));
  });

  it('is refused when a server off this machine needs it and it is not given, or when the images were not sent by URL', async () => {
    await expect(
      ready({ baseline: byUrl(), optimized: byUrl() }, [], { urls: { baseline: 'http://192.0.2.1:8000', optimized: LOCAL.optimized } }),
    ).rejects.toThrow(
      "baseline: the receipt's images were sent by URL and its image base URL is withheld; the server at 192.0.2.1:8000 is not on this machine, so give --image-base-url http://HOST:PORT, an address of this machine it can reach",
    );
    await expect(ready({ baseline: side(), optimized: side() }, [], { imageBaseUrl: 'http://192.0.2.9:8090' })).rejects.toThrow(
      "--image-base-url: applies to a receipt whose images were sent by URL; this one's were not",
    );
    await expect(ready({ baseline: byUrl(), optimized: byUrl() }, [], { imageBaseUrl: 'http://192.0.2.9/images' })).rejects.toThrow(
      /^--image-base-url: 'http:\/\/192\.0\.2\.9\/images' must be http:\/\/HOST:PORT, no path/,
    );
  });
});
