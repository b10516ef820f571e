/**
 * `goodput reproduce` of an embeddings receipt: the receipt of two contract
 * runs against two simulated encoders is reproduced through the embeddings
 * contract runner and the embeddings receipt builder, claim by claim; against
 * an encoder twenty times slower per token, the optimized latency claims do
 * not hold (exit 8). The figures of millisecond encoders on a loaded machine
 * move more than text's, so the run against the same servers is only asked
 * for a verdict on every claim.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPoolingContract, validateContract } from '../contract/index.js';
import type { ClaimCheck } from '../publish/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { poolingContract } from '../test-support/pooling-contract.js';
import { EXIT } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-reproduce-pooling-'));
const receiptPath = join(dir, 'receipts', 'embeddings.json');
const sims: SimServer[] = [];
const encoder = (msPerInputToken: number) => startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 1, msPerInputToken } });

beforeAll(async () => {
  // The baseline encoder, one twice as fast, and one twenty times slower than that.
  sims.push(await encoder(0.02), await encoder(0.01), await encoder(0.2));
  const write = async (name: string, sim: SimServer) => {
    const contract = validateContract(poolingContract(sim.url, 'embeddings'), 'contract.yaml', dir);
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(await runPoolingContract(contract, { url: sim.url, command: 'goodput run contract.yaml' })));
    return path;
  };
  const b = await write('base', sims[0] as SimServer);
  const o = await write('fast', sims[1] as SimServer);
  const made = await cli(['receipt', 'create', '--baseline', b, '--optimized', o, '--method', 'a faster encoder', '--out', receiptPath]);
  expect(made.code, made.stderr).toBe(0);
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

const reproduce = async (optimized: SimServer, json: string) => {
  const r = await cli(['reproduce', receiptPath, '--baseline-url', (sims[0] as SimServer).url, '--optimized-url', optimized.url, '--json', json]);
  return { r, claims: (JSON.parse(readFileSync(json, 'utf8')) as { claims: ClaimCheck[] }).claims };
};

describe('goodput reproduce of an embeddings receipt', () => {
  it('reruns both embeddings contracts and gives every claim a verdict', async () => {
    const { r, claims } = await reproduce(sims[1] as SimServer, join(dir, 'same.json'));
    expect([EXIT.ok, EXIT.notReproduced], r.stderr).toContain(r.code);
    expect(claims.map((c) => c.id)).toEqual(expect.arrayContaining(['baseline.latencyP50', 'optimized.latencyP50', 'optimized.latencyP95']));
    expect(claims.every((c) => c.reproduced !== null || !c.holds)).toBe(true);
  });

  it('against a slower encoder, names the optimized latency claims that do not hold', async () => {
    const { r, claims } = await reproduce(sims[2] as SimServer, join(dir, 'slower.json'));
    expect(r.code, r.stderr).toBe(EXIT.notReproduced);
    const p50 = claims.find((c) => c.id === 'optimized.latencyP50') as ClaimCheck;
    expect(p50.holds).toBe(false);
    expect(p50.reproduced).toBeGreaterThan(p50.high);
    expect(r.stdout).toMatch(/do not hold: .*optimized\.latencyP50/);
  });
});
