/**
 * An embeddings sweep stopped part-way, stored in the embedded database and in
 * a real PostgreSQL: killed with SIGKILL it keeps its finished level and reads
 * as interrupted (no result to export); stopped with SIGINT it is stored as a
 * stopped run whose result is its finished levels.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolingResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { startGoodput } from '../test-support/goodput-process.js';
import { type TestPostgres, startTestPostgres } from '../test-support/postgres.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
let pg: TestPostgres;
beforeAll(async () => {
  // 8 inputs of 64 tokens at 0.05 ms a token: about 26 ms a request, one at a time, so the level after the first lasts seconds.
  sim = await spawnSimProcess(['--pooling-ms-per-token', '0.05']);
  pg = await startTestPostgres();
});
afterAll(async () => {
  await sim?.stop();
  pg?.stop();
});

const SWEEP = ['--endpoint', 'embeddings', '--levels', '1,2,4', '--batch-size', '8', '--prompt-tokens', '64', '--requests-per-level', '40'];
const backends: Array<[string, () => Promise<string[]>]> = [
  ['the embedded database', async () => ['--data', join(mkdtempSync(join(tmpdir(), 'goodput-pooling-kill-')), 'db')]],
  ['PostgreSQL', async () => ['--database-url', await pg.createDatabase()]],
];

for (const [name, storeFlags] of backends) {
  describe(`an embeddings sweep stopped part-way, stored in ${name}`, () => {
    it(
      'SIGKILL: keeps the finished level, reads as interrupted, and has no result to export',
      async () => {
        const store = await storeFlags();
        const sweep = startGoodput(['sweep', '--url', sim.url, ...SWEEP, ...store]);
        const id = (await sweep.waitFor(/level c=1 stored in run (\d+)/, 90_000))[1] as string;
        await sweep.stop('SIGKILL');
        const run = JSON.parse((await cli(['runs', 'show', id, '--json', ...store])).stdout);
        expect(run.status).toBe('interrupted');
        expect(run.stopReason).toMatch(/^interrupted: its process \(pid \d+ on .*\) ended without finishing it; levels 1 are kept$/);
        expect(run.pooling.levels.map((l: { concurrency: number }) => l.concurrency)).toEqual([1]);
        expect(run.pooling.result).toBeNull();
        const exported = await cli(['runs', 'export', id, ...store]);
        expect(exported.code).toBe(2);
        expect(exported.stderr).toMatch(/was interrupted .* its 1 finished level\(s\) can be read with: goodput runs show/);
        const list = await cli(['runs', 'list', ...store]);
        expect(list.stdout).toMatch(new RegExp(`\\n${id} +interrupted +.* embeddings +1/3 `));
      },
      patient(150_000),
    );

    it(
      'SIGINT: stored as stopped, its result the finished levels',
      async () => {
        const store = await storeFlags();
        const sweep = startGoodput(['sweep', '--url', sim.url, ...SWEEP, ...store]);
        const id = (await sweep.waitFor(/level c=1 stored in run (\d+)/, 90_000))[1] as string;
        expect(await sweep.stop('SIGINT')).toBe(130);
        const exported = await cli(['runs', 'export', id, ...store]);
        expect(exported.code, exported.stderr).toBe(0);
        const result = poolingResultSchema.parse(JSON.parse(exported.stdout));
        expect(result.run.status).toBe('stopped');
        expect(result.run.stopReason).toBe('stopped by the user; 1 level(s) complete');
        expect(result.levels.map((l) => l.concurrency)).toEqual([1]);
      },
      patient(150_000),
    );
  });
}
