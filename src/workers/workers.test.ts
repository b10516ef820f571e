/**
 * Distributed workers for real: a PostgreSQL server, the simulator in its own
 * process and three `goodput worker` processes on loopback, driven by `goodput
 * sweep --workers`. The merged levels count what one process's do (their
 * timing against one process's is workers.timing.test.ts); a worker SIGKILLed
 * mid-level leaves failed requests named after it and the others' records
 * whole; a worker whose clock is 2 s off is measured and corrected; bad input is
 * refused with one line and exit 2, storing nothing; eight workers and a
 * coordinator started at one instant on an empty database all come up.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LevelResult, RequestRecord, SweepResult } from '../core/index.js';
import { runGoodput, startGoodput } from '../test-support/goodput-process.js';
import { FLEET_SWEEP_ARGS as COMMON, useWorkerFleet } from '../test-support/worker-fleet.js';
import { launchChromium } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const fleet = useWorkerFleet(['w1', 'w2', 'w3']);
const { workers, startWorker, sweep, query } = fleet;

describe('goodput sweep --workers', () => {
  it(
    'levels 3, 6, 12 over 3 workers: the counts of one process, each worker its share',
    async () => {
      const one = await sweep(['--levels', '3,6,12', '--requests-per-level', '24']);
      // Stored (in the same PostgreSQL) for the page test below.
      const three = await sweep([
        '--levels',
        '3,6,12',
        '--requests-per-level',
        '24',
        '--workers',
        '3',
        '--database-url',
        fleet.db(),
        '--workers-wait',
        '30',
        '--save',
      ]);
      for (const [i, l] of three.levels.entries()) {
        const single = one.levels[i] as LevelResult;
        expect(l.requests).toBe(single.requests);
        expect(l.succeeded).toBe(24);
        expect(l.shares?.map((s) => s.label).sort()).toEqual(['worker w1', 'worker w2', 'worker w3']);
        expect(l.shares?.map((s) => s.requests)).toEqual([8, 8, 8]);
        // Every worker measured its clock against the database's.
        for (const s of l.shares ?? []) expect(s.clockToDb?.uncertaintyMs).toBeGreaterThanOrEqual(0);
        // All three started at one instant: the level ran with all its streams at once.
        expect(l.load?.peakInFlight).toBe(l.concurrency);
      }
    },
    patient(240_000),
  );

  it(
    "the page shows the live workers and, for the stored run, each level's share per worker",
    async () => {
      const serve = startGoodput(['serve', '--port', '0', '--database-url', fleet.db()]);
      const browser = await launchChromium();
      try {
        const url = (await serve.waitFor(/goodput serve: (http:\/\/127\.0\.0\.1:\d+\/)/))[1] as string;
        const live = (await (await fetch(`${url}api/workers`)).json()) as Array<{ name: string }>;
        expect(live.map((w) => w.name)).toEqual(['w1', 'w2', 'w3']);
        const page = await browser.newPage();
        await page.goto(url);
        const workersTable = page.getByRole('region', { name: 'Workers' }).getByRole('table');
        await workersTable.waitFor({ timeout: patient(15_000) });
        expect(await workersTable.getByRole('rowheader').allTextContents()).toEqual(['w1', 'w2', 'w3']);
        const clients = page.getByRole('region', { name: 'Clients' }).getByRole('table');
        await clients.waitFor({ timeout: patient(15_000) });
        const rows = await clients.locator('tbody tr').allTextContents();
        expect(rows).toHaveLength(9);
        for (const name of ['worker w1', 'worker w2', 'worker w3']) expect(rows.filter((r) => r.includes(name))).toHaveLength(3);
        expect(rows.every((r) => /ok$/.test(r))).toBe(true);
      } finally {
        await browser.close();
        await serve.stop();
      }
    },
    patient(120_000),
  );

  it(
    'a worker SIGKILLed mid-level: its unfinished requests fail naming it, the others’ records are whole, the sweep goes on',
    async () => {
      const since = new Date();
      const run = runGoodput(
        [
          'sweep',
          '--url',
          fleet.sim().url,
          ...COMMON,
          '--levels',
          '6,9',
          '--requests-per-level',
          '45',
          '--output-tokens',
          '24',
          '--workers',
          '3',
          '--database-url',
          fleet.db(),
        ],
        {},
        180_000,
      );
      // Kill w2 once it has streamed a few measured records of the first level (warm-ups are not in its 15).
      for (let i = 0; i < 400; i++) {
        const [row] = await query<{ n: number }>(
          "SELECT count(*)::int AS n FROM worker_records r JOIN worker_shares s USING (share) WHERE s.worker = 'w2' AND s.level = 6 AND s.updated_at >= $1 AND NOT (r.record->>'warmup')::boolean",
          [since],
        );
        if ((row?.n ?? 0) >= 3) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      workers.get('w2')?.child.kill('SIGKILL');
      const done = await run;
      expect(done.code, done.stderr).toBe(0);
      const result = JSON.parse(done.stdout) as SweepResult;
      const [first, second] = result.levels as [LevelResult, LevelResult];
      const lost = first.shares?.find((s) => s.label === 'worker w2');
      expect(lost?.lost).toMatch(/worker w2 stopped answering mid-level/);
      expect(first.failures['client-lost']).toBeGreaterThan(0);
      expect(first.failures['client-lost']).toBeLessThanOrEqual(15 - 3);
      expect(first.invalid).toBe(true);
      // w1 and w3 lost nothing: each sent its 15 requests, all of them ok.
      for (const s of first.shares?.filter((x) => x.label !== 'worker w2') ?? []) expect(s.requests).toBe(15);
      expect(first.succeeded).toBe(45 - (first.failures['client-lost'] as number));
      // The next level went on over the two live workers.
      expect(second.requests).toBe(45);
      expect(second.failed).toBe(0);
      expect(second.shares?.map((s) => s.label).sort()).toEqual(['worker w1', 'worker w3']);
    },
    patient(240_000),
  );

  it(
    'a worker whose clock is 2 s ahead is measured and corrected: all three start together',
    async () => {
      await workers.get('w2')?.stop();
      await startWorker('w2', { GOODPUT_TEST_CLOCK_SKEW_MS: '2000' });
      const [row] = await query<{ off: number }>("SELECT clock_offset_ms AS off FROM workers WHERE name = 'w2'");
      expect(row?.off).toBeGreaterThan(-2050);
      expect(row?.off).toBeLessThan(-1950);
      const raw = join(mkdtempSync(join(tmpdir(), 'goodput-workers-')), 'records.jsonl');
      const three = await sweep([
        '--levels',
        '6',
        '--requests-per-level',
        '24',
        '--workers',
        '3',
        '--database-url',
        fleet.db(),
        '--workers-wait',
        '30',
        '--raw',
        raw,
      ]);
      const l = three.levels[0] as LevelResult;
      expect(l.shares?.find((s) => s.label === 'worker w2')?.clockToDb?.offsetMs).toBeLessThan(-1950);
      // Corrected: on the merged clock the three first sends are together, where an uncorrected w2 would sit 2,000 ms
      // off. How close together (20 ms), and the TTFTs against one process's, is workers.timing.test.ts.
      const records = readFileSync(raw, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as RequestRecord)
        .filter((r) => !r.warmup);
      const firstSend = ['worker w1', 'worker w2', 'worker w3'].map((c) => Math.min(...records.filter((r) => r.client === c).map((r) => r.sendNs)));
      expect((Math.max(...firstSend) - Math.min(...firstSend)) / 1e6).toBeLessThan(1000);
      expect(l.load?.peakInFlight).toBe(6);
      expect(l.succeeded).toBe(24);
    },
    patient(240_000),
  );

  it(
    "Ctrl-C on the coordinator mid-level stops every worker's share at once, and the workers serve the next sweep",
    async () => {
      const since = new Date();
      const sweepRun = startGoodput([
        'sweep',
        '--url',
        fleet.sim().url,
        ...COMMON,
        '--levels',
        '6',
        '--requests-per-level',
        '600',
        '--workers',
        '3',
        '--database-url',
        fleet.db(),
      ]);
      for (let i = 0; i < 400; i++) {
        const [row] = await query<{ n: number }>(
          'SELECT count(*)::int AS n FROM worker_records r JOIN worker_shares s USING (share) WHERE s.updated_at >= $1',
          [since],
        );
        if ((row?.n ?? 0) >= 6) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const stoppedAt = Date.now();
      expect(await sweepRun.stop('SIGINT')).toBe(130);
      // 600 requests would take ~100 s; stopped, it ends in seconds.
      expect(Date.now() - stoppedAt).toBeLessThan(20_000);
      const next = await sweep(['--levels', '3', '--requests-per-level', '6', '--workers', '3', '--database-url', fleet.db(), '--workers-wait', '30']);
      expect(next.levels[0]?.succeeded).toBe(6);
      expect(next.levels[0]?.shares).toHaveLength(3);
    },
    patient(120_000),
  );

  it(
    'an API key never goes through the database: a worker without its own refuses the share, naming why',
    async () => {
      const r = await runGoodput(
        [
          'sweep',
          '--url',
          fleet.sim().url,
          ...COMMON,
          '--levels',
          '3',
          '--requests-per-level',
          '3',
          '--workers',
          '3',
          '--database-url',
          fleet.db(),
          '--workers-wait',
          '30',
        ],
        { GOODPUT_API_KEY: 'sk-never-in-the-database-42' },
        120_000,
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/worker w\d has no API key and the sweep's server needs one: start it with GOODPUT_API_KEY set/);
      const [jobs] = await query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE data::text LIKE '%sk-never-in-the-database%'");
      const [shares] = await query<{ n: number }>("SELECT count(*)::int AS n FROM worker_shares WHERE detail::text LIKE '%sk-never-in-the-database%'");
      expect([jobs?.n, shares?.n]).toEqual([0, 0]);
      // The workers are free again for the next sweep.
      const next = await sweep(['--levels', '3', '--requests-per-level', '3', '--workers', '3', '--database-url', fleet.db(), '--workers-wait', '30']);
      expect(next.levels[0]?.succeeded).toBe(3);
    },
    patient(120_000),
  );

  it(
    'a worker whose clock cannot be known well enough is refused, naming the bound',
    async () => {
      const r = await runGoodput(['worker', '--database-url', fleet.db(), '--name', 'slow'], { GOODPUT_TEST_DB_DELAY_MS: '40' }, 60_000);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/worker slow refused: its clock offset to the database is known only to ±\d+\.\d ms \(the bound is ±10 ms\)/);
    },
    patient(90_000),
  );

  it(
    'bad input: one line, exit 2, nothing stored',
    async () => {
      const runsBefore = await query<{ n: number }>('SELECT count(*)::int AS n FROM runs');
      const zero = await runGoodput(['sweep', '--url', fleet.sim().url, '--levels', '3', '--workers', '0', '--database-url', fleet.db()]);
      expect(zero.code).toBe(2);
      expect(zero.stderr).toMatch(/--workers/);
      const deaf = await runGoodput([
        'sweep',
        '--url',
        fleet.sim().url,
        '--levels',
        '3',
        '--workers',
        '2',
        '--database-url',
        'postgres://goodput@127.0.0.1:1/none',
      ]);
      expect(deaf.code).toBe(2);
      expect(deaf.stderr).toMatch(/--database-url: cannot connect to PostgreSQL at postgres:\/\/\S*127\.0\.0\.1:1\/none/);
      const few = await runGoodput([
        'sweep',
        '--url',
        fleet.sim().url,
        '--levels',
        '3',
        '--workers',
        '5',
        '--workers-wait',
        '1',
        '--database-url',
        fleet.db(),
        '--save',
      ]);
      expect(few.code).toBe(2);
      expect(few.stderr).toMatch(/--workers 5: only 3 live workers after 1 s \(w1, w2, w3\)/);
      const noDb = await runGoodput(['sweep', '--url', fleet.sim().url, '--levels', '3', '--workers', '2'], { GOODPUT_DATABASE_URL: '' });
      expect(noDb.code).toBe(2);
      expect(noDb.stderr).toMatch(/--workers: needs --database-url/);
      for (const r of [zero, deaf, few, noDb]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(await query<{ n: number }>('SELECT count(*)::int AS n FROM runs')).toEqual(runsBefore);
    },
    patient(120_000),
  );

  // Last in this file, so its nine processes starting at once never overlap the timing comparisons above.
  it(
    'eight workers and a coordinator started at the same instant on an empty database all come up, three times over',
    async () => {
      for (let round = 0; round < 3; round++) {
        const fresh = await fleet.pg().createDatabase();
        const started = Array.from({ length: 8 }, (_, i) => startGoodput(['worker', '--database-url', fresh, '--name', `r${round}w${i}`]));
        const coordinator = runGoodput(
          [
            'sweep',
            '--url',
            fleet.sim().url,
            ...COMMON,
            '--levels',
            '8',
            '--requests-per-level',
            '8',
            '--warmup',
            '0',
            '--workers',
            '8',
            '--database-url',
            fresh,
            '--workers-wait',
            '90',
          ],
          {},
          150_000,
        );
        try {
          const done = await coordinator;
          expect(done.code, `${done.stderr}\n${started.map((w) => w.out().stderr).join('')}`).toBe(0);
          expect((JSON.parse(done.stdout) as SweepResult).levels[0]?.shares).toHaveLength(8);
          for (const w of started) expect(w.child.exitCode, w.out().stderr).toBeNull();
        } finally {
          await Promise.all(started.map((w) => w.stop()));
        }
      }
    },
    patient(480_000),
  );
});
