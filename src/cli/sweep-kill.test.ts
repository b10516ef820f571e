/**
 * A sweep killed with SIGKILL mid-level keeps its finished levels, readable,
 * and reads as `interrupted` (not as a result) — on the embedded database and
 * on a real PostgreSQL. While it runs, a second sweep against the same server
 * is refused: levels must not contend.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { startGoodput } from '../test-support/goodput-process.js';
import { type TestPostgres, startTestPostgres } from '../test-support/postgres.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
let pg: TestPostgres;
beforeAll(async () => {
  // Slow enough at concurrency 64 (batching slowdown) that the kill lands mid-level.
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '4', '--decode-ms-per-extra-seq', '0.5']);
  pg = await startTestPostgres();
});
afterAll(async () => {
  await sim?.stop();
  pg?.stop();
});

const backends: Array<[string, () => Promise<string[]>]> = [
  ['the embedded database', async () => ['--data', join(mkdtempSync(join(tmpdir(), 'goodput-kill-')), 'db')]],
  ['PostgreSQL', async () => ['--database-url', await pg.createDatabase()]],
];

for (const [name, storeFlags] of backends) {
  describe(`SIGKILL mid-level, stored in ${name}`, () => {
    it(
      'keeps the finished levels, reads as interrupted, and is not exportable as a result',
      async () => {
        const store = await storeFlags();
        const sweep = startGoodput(['sweep', '--url', sim.url, '--levels', '1,2,64', '--output-tokens', '32', '--prompt-tokens', '8', ...store]);
        const id = (await sweep.waitFor(/level c=2 stored in run (\d+)/, 90_000))[1] as string;
        if (store[0] === '--database-url') {
          // Only PostgreSQL lets a second writer in while the first writes: it must refuse to contend.
          const second = await cli(['sweep', '--url', sim.url, '--levels', '1', '--output-tokens', '32', ...store]);
          expect(second.code).toBe(2);
          expect(second.stderr).toMatch(
            new RegExp(
              `run ${id} \\(pid \\d+ on .*\\) against http://127\\.0\\.0\\.1:\\d+ is still in progress; a second run would make the levels of both contend`,
            ),
          );
        }
        expect(sweep.child.exitCode).toBeNull();
        await sweep.stop('SIGKILL');
        const shown = await cli(['runs', 'show', id, '--json', ...store]);
        expect(shown.code).toBe(0);
        const run = JSON.parse(shown.stdout);
        expect(run.status).toBe('interrupted');
        expect(run.stopReason).toMatch(/^interrupted: its process \(pid \d+ on .*\) ended without finishing it; levels 1, 2 are kept$/);
        expect(run.levels.map((l: { concurrency: number }) => l.concurrency)).toEqual([1, 2]);
        expect(run.cards).toBeNull();
        const text = await cli(['runs', 'show', id, ...store]);
        expect(text.stdout).toMatch(/run \d+ · interrupted ·[\s\S]*Concurrency[\s\S]*an interrupted run is not a result/);
        const exported = await cli(['runs', 'export', id, ...store]);
        expect(exported.code).toBe(2);
        expect(exported.stderr).toMatch(/was interrupted .* its 2 finished level\(s\) can be read with: goodput runs show/);
        const list = await cli(['runs', 'list', ...store]);
        expect(list.stdout).toMatch(new RegExp(`\\n${id} +interrupted +.* 2/3 `));
      },
      patient(150_000),
    );
  });
}

describe('SIGINT or SIGTERM before any level ends', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `${signal}: exits as stopped, writes no result file, stores no run, and says nothing was finished`,
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'goodput-stop-'));
        const store = ['--data', join(dir, 'db')];
        const json = join(dir, 'result.json');
        const sweep = startGoodput([
          'sweep',
          '--url',
          sim.url,
          '--levels',
          '1',
          '--requests-per-level',
          '400',
          '--output-tokens',
          '256',
          '--prompt-tokens',
          '8',
          '--json',
          json,
          '--raw',
          join(dir, 'raw.jsonl'),
          '--save',
          ...store,
        ]);
        await sweep.waitFor(/^engine /m, 60_000);
        const code = await sweep.stop(signal);
        const { stdout, stderr } = sweep.out();
        expect(code).toBe(130);
        expect(stderr).toMatch(/nothing was finished: stopped before the first level ended, so no result was written and no run stored\n/);
        expect(stdout).not.toMatch(/Concurrency/);
        expect(existsSync(json)).toBe(false);
        expect(existsSync(join(dir, 'raw.jsonl'))).toBe(false);
        const list = await cli(['runs', 'list', ...store]);
        expect(list.stdout).toMatch(/no stored runs/);
      },
      patient(90_000),
    );
  }
});
