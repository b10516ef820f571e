/**
 * Signed embeddings sets, end to end over loopback, as for text: `keys
 * create`, a signed `run --repeats 3` of an embeddings contract on each side
 * against two simulators, `receipt create`, `publish --measurer-key
 * --require-signed --key` and `verify --key`, every number standing signed.
 * Then the lies: an unsigned pooling set, and one signed by a key the site
 * does not list, each refused by --require-signed naming the evidence file;
 * and the signed set with one run dropped, renumbered or cloned, the result
 * re-signed with the key as its holder could, each refused by receipt create
 * naming the rule and the run. Runs are tiny.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { combinePoolingRuns } from '../contract/index.js';
import { type PoolingResult, poolingResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { poolingContract } from '../test-support/pooling-contract.js';
import { evidencePath, packEvidence } from './evidence-files.js';
import { poolingRunsOf } from './pooling-evidence.js';
import { publicResult } from './receipt-kinds.js';
import { manifestSha256, openRunStatement, openSetManifest, runSha256, signPoolingRunOfSet } from './run-set.js';
import { parseKey, signedResult } from './site-signing.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-pooling-run-set-e2e-'));
const sims: SimServer[] = [];
beforeAll(async () => {
  // Two configurations of one model: the second encoder twice as fast per token.
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 1, msPerInputToken: 0.02 } }));
  sims.push(await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 1, msPerInputToken: 0.01 } }));
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

const ok = (r: { code: number | null; stderr: string }, what: string) => expect(r.code, `${what}:\n${r.stderr}`).toBe(0);
const read = (file: string) => poolingResultSchema.parse(JSON.parse(readFileSync(file, 'utf8')));

/** `goodput run --repeats 3` of an embeddings contract against sim `k`, with `flags`; the result file. */
async function runSet(name: string, k: number, ...flags: string[]): Promise<string> {
  const contract = join(dir, `${name}.yaml`);
  writeFileSync(contract, stringify(poolingContract((sims[k] as SimServer).url, 'embeddings')));
  const json = join(dir, `${name}.json`);
  ok(await cli(['run', contract, '--repeats', '3', '--json', json, ...flags]), `run ${name}`);
  return json;
}

/** A key pair made by `goodput keys create` in `name`: its files and id. */
async function keyPair(name: string): Promise<{ key: string; pub: string; id: string }> {
  const made = await cli(['keys', 'create', '--dir', join(dir, name)]);
  ok(made, 'keys create');
  return {
    key: join(dir, name, 'publisher.key'),
    pub: join(dir, name, 'publisher.pub'),
    id: /created key (ed25519:[0-9a-f]{32})/.exec(made.stdout)?.[1] ?? '',
  };
}

async function receiptCreate(baseline: string, optimized: string, out: string) {
  return cli([
    'receipt',
    'create',
    '--baseline',
    baseline,
    '--optimized',
    optimized,
    '--method',
    'a faster encoder',
    '--out',
    out,
    '--allow-server-disagreement',
  ]);
}

/** `result` written as `goodput run --json` writes it, and signed again over its new bytes with `keyFile`, as its holder could. */
function resign(file: string, result: PoolingResult, keyFile: string): void {
  const key = parseKey(readFileSync(keyFile, 'utf8'), 'private');
  if (!key.ok) throw new Error(key.problem);
  const json = JSON.stringify(result, null, 2) + '\n';
  writeFileSync(file, json);
  const published = packEvidence(publicResult(poolingResultSchema.parse(JSON.parse(json)))).sha256;
  writeFileSync(`${file}.dsse.json`, signedResult(Buffer.from(json), key.key, published));
}

function setOf(r: PoolingResult): NonNullable<PoolingResult['runSet']> {
  if (r.runSet === undefined) throw new Error('the result carries no signed set');
  return r.runSet;
}

/** Runs recombined as a forger would: the first on top, the others as repeats, with the set's manifest and signatures `sigs`. */
const recombined = (r: PoolingResult, runs: PoolingResult[], sigs: NonNullable<PoolingResult['runSet']>['runs']): PoolingResult => ({
  ...combinePoolingRuns(runs.map(({ runSet: _s, ...x }) => x)),
  runSet: { manifest: setOf(r).manifest, runs: sigs },
});

describe('signed embeddings sets, end to end', () => {
  it('a whole signed set publishes signed and verifies; unsigned, unlisted, dropped, renumbered and cloned sets are refused, naming them', async () => {
    const measurer = await keyPair('keys');
    const other = await keyPair('other');
    const b = await runSet('b', 0, '--key', measurer.key);
    const o = await runSet('o', 1, '--key', measurer.key);

    // Each run's signature covers the run as its receipt ships it, at its place in the set.
    const result = read(o);
    const manifest = openSetManifest(setOf(result).manifest);
    if (!manifest.ok) throw new Error(manifest.problem);
    expect(manifest.statement).toMatchObject({ n: 3, contractHash: result.contractHash, signer: { keyid: measurer.id } });
    const shipped = poolingRunsOf(publicResult(result));
    expect(
      setOf(result).runs.map((env) => {
        const s = openRunStatement(env, manifest.statement);
        return s.ok ? { index: s.statement.index, set: s.statement.set, runSha256: s.statement.runSha256 } : s.problem;
      }),
    ).toEqual(shipped.map((run, k) => ({ index: k + 1, set: manifestSha256(setOf(result).manifest), runSha256: runSha256(run) })));

    const receipts = join(dir, 'receipts');
    ok(await receiptCreate(b, o, join(receipts, 'r.json')), 'receipt');
    const stated = JSON.parse(readFileSync(join(receipts, 'r.json'), 'utf8')) as { signatures: Record<string, unknown> };
    for (const side of ['baseline', 'optimized']) expect(stated.signatures[side]).toMatchObject({ keyid: measurer.id, runs: 3, setKeyid: measurer.id });
    const site = join(dir, 'site');
    ok(await cli(['publish', '--receipts', receipts, '--measurer-key', measurer.pub, '--require-signed', '--key', measurer.key, '--out', site]), 'publish');
    const dataset = JSON.parse(readFileSync(join(site, 'dataset.json'), 'utf8')) as {
      receipts: Array<{
        modality: string;
        numbers: Array<{ id: string; standing?: { by: string; what: string; key?: string } }>;
        standing: Record<string, { by: string }>;
      }>;
    };
    const [published] = dataset.receipts;
    expect(published?.modality).toBe('embeddings');
    // Every measured number stands signed; the quality score, which an embeddings endpoint never has, stands on no signature.
    const numbers = published?.numbers ?? [];
    expect(numbers.length).toBeGreaterThan(1);
    const quality = (n: (typeof numbers)[number]) => n.id.endsWith('.quality');
    expect(numbers.filter((n) => !quality(n) && (n.standing?.by !== 'signed' || n.standing.key !== measurer.id))).toEqual([]);
    expect(numbers.filter(quality).map((n) => n.standing?.what)).toEqual([
      'recomputed from the quality evidence, not signed by a measurer (no quality score was given)',
    ]);
    expect(published?.standing['hardware']).toMatchObject({ by: 'signed' });
    ok(await cli(['verify', site, '--key', measurer.pub]), 'verify');

    // An unsigned set, and a set signed by a key the site does not list: --require-signed names the evidence file.
    const unlisted = [
      ['unsigned', await runSet('o-unsigned', 1), 'not signed by a measurer (its 3 runs are not signed)'],
      ['unlisted', await runSet('o-other', 1, '--key', other.key), `signed by ${other.id}, which this site does not list as a measurer`],
    ] as const;
    for (const [what, file, why] of unlisted) {
      const folder = join(dir, `receipts-${what}`);
      ok(await receiptCreate(b, file, join(folder, 'r.json')), `receipt ${what}`);
      const ref = (JSON.parse(readFileSync(join(folder, 'r.json'), 'utf8')) as { evidence: { optimized: string } }).evidence.optimized;
      const out = join(dir, `site-${what}`);
      const refused = await cli(['publish', '--receipts', folder, '--measurer-key', measurer.pub, '--require-signed', '--out', out]);
      expect(refused.code, what).toBe(2);
      expect(refused.stderr).toContain(`evidence.optimized (${evidencePath(ref)}): ${why}; --require-signed publishes signed runs only [rule: require-signed]`);
      expect(refused.stderr).not.toContain('evidence.baseline (');
      expect(existsSync(out), what).toBe(false);
      // Without --require-signed it publishes, each optimized number standing on what it is.
      ok(await cli(['publish', '--receipts', folder, '--measurer-key', measurer.pub, '--out', out]), `publish ${what}`);
      expect(readFileSync(join(out, 'dataset.json'), 'utf8')).toContain(why);
    }

    // One run dropped, one renumbered into its place, one cloned: each re-signed with the key as its holder could.
    const runs = poolingRunsOf(result);
    const sigs = setOf(result).runs;
    const [r1, r2, r3] = runs as [PoolingResult, PoolingResult, PoolingResult];
    const pk = parseKey(readFileSync(measurer.key, 'utf8'), 'private');
    if (!pk.ok) throw new Error(pk.problem);
    const clone = { ...r1, run: { ...r1.run, startedAt: r3.run.startedAt, endedAt: r3.run.endedAt } };
    const cloneSig = signPoolingRunOfSet(manifestSha256(setOf(result).manifest), 3, clone, pk.key);
    const at = (k: number) => sigs[k] as (typeof sigs)[number];
    const forgeries: Array<[string, PoolingResult, string | RegExp]> = [
      [
        'dropped',
        recombined(result, [r1, r2], [at(0), at(1)]),
        "evidence.optimized: run 3: is missing: the set's manifest signs 3 runs and no run ships with the signature of run 3 [rule: run-set]",
      ],
      [
        'renumbered',
        recombined(result, [r1, r3], [at(0), at(2)]),
        'evidence.optimized: run 2: ships as run 2, but is signed as run 3 of the set: the runs were renumbered [rule: run-set]',
      ],
      [
        'cloned',
        recombined(result, [r1, r2, clone], [at(0), at(1), cloneSig]),
        /evidence\.optimized: run 3 records: are byte-identical to run 1's \(sha256 [0-9a-f]{64}\): one measurement shipped as two runs \(a clone\) \[rule: run-set\]/,
      ],
    ];
    for (const [what, forged, why] of forgeries) {
      const file = join(dir, `${what}.json`);
      resign(file, forged, measurer.key);
      const out = join(dir, `receipts-${what}`, 'r.json');
      const refused = await receiptCreate(b, file, out);
      expect(refused.code, `${what}:\n${refused.stderr}`).toBe(2);
      if (typeof why === 'string') expect(refused.stderr, what).toContain(why);
      else expect(refused.stderr, what).toMatch(why);
      expect(existsSync(out), what).toBe(false);
    }
  }, 600_000);
});
