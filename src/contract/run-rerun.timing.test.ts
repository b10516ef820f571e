/**
 * The acceptance test of the contract: `goodput run` of the checked-in example
 * against the simulator (its own process), then `goodput rerun` of the result.
 * Tolerance: the same contract hash and request counts, and per level
 * throughput, TTFT p50 and TPOT p50 within 10% of the first run.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGoodput } from '../test-support/goodput-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { wallClock } from '../test-support/wall-clock.js';

const TOLERANCE = 0.1;
const EXAMPLE = fileURLToPath(new URL('../../examples/goodput.yaml', import.meta.url));

const goodput = (args: string[]) => runGoodput(args, {}, 100_000);

let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--decode-step-ms', '3', '--prefill-base-ms', '20']);
});
afterAll(async () => {
  await sim.stop();
});

describe('goodput rerun reproduces goodput run', () => {
  it(`same contract hash, same request counts, metrics within ${TOLERANCE * 100}%`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'goodput-rerun-'));
    const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')];
    const first = await goodput(['run', EXAMPLE, '--url', sim.url, '--json', a]);
    expect(first.code, first.stderr).toBe(0);
    const again = await goodput(['rerun', a, '--url', sim.url, '--json', b]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Same contract \(sha256 [0-9a-f]{64}\)/);
    const [ra, rb] = [a, b].map((p) => sweepResultSchema.parse(JSON.parse(readFileSync(p, 'utf8'))));
    if (!ra || !rb) throw new Error('results missing');
    expect(rb.contractHash).toBe(ra.contractHash);
    expect(rb.contract).toEqual(ra.contract);
    expect(rb.run.command).toMatch(/^goodput rerun /);
    expect(rb.levels.map((l) => [l.concurrency, l.requests])).toEqual(ra.levels.map((l) => [l.concurrency, l.requests]));
    ra.levels.forEach((la, i) => {
      const lb = rb.levels[i];
      const near = (x: number | undefined, y: number | undefined, what: string) =>
        wallClock(Math.abs((y ?? NaN) - (x ?? NaN)) / (x ?? NaN), `${what} at c=${la.concurrency}: ${x} vs ${y}`).toBeLessThan(TOLERANCE);
      near(la.throughputTokS, lb?.throughputTokS, 'throughput');
      near(la.ttftMs?.p50, lb?.ttftMs?.p50, 'TTFT p50');
      near(la.tpotMs?.p50, lb?.tpotMs?.p50, 'TPOT p50');
      expect(lb?.failed).toBe(0);
    });
  });
});
