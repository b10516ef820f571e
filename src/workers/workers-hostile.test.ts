/**
 * Workers and a coordinator that trust nothing the database says, for real: a
 * PostgreSQL server, the simulator and `goodput worker` processes on loopback.
 * A forged queue job (unsigned, signed with another secret, or signed but past
 * the limits) is refused with one line and never reaches its server, so the
 * worker's API key goes nowhere; rows pre-inserted at a share's sequence numbers
 * fail the share loudly, a flood of rows elsewhere makes the level invalid naming
 * a row, at its true count; a coordinator SIGKILLed mid-share has its share
 * abandoned within seconds, and a stopped worker ends at once.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LevelResult, type SweepResult, sweepResultSchema } from '../core/index.js';
import { sweepSpecSchema } from '../runner/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { type Started, runGoodput, startGoodput } from '../test-support/goodput-process.js';
import { type TestPostgres, queryDatabase, startTestPostgres } from '../test-support/postgres.js';
import { signedWorkerRow } from '../test-support/worker-fleet.js';
import { SweepKey } from './share-auth.js';
import { patient } from '../test-support/patience.js';

const SECRET = 'b2'.repeat(32);
process.env['GOODPUT_WORKER_SECRET'] = SECRET;
const API_KEY = 'sk-worker-own-key-77';
// Slow first token: a share's first record is written well after its job is on the queue.
const SCHEDULE = ['--prefill-base-ms', '300', '--prefill-ms-per-token', '0', '--decode-step-ms', '5', '--decode-ms-per-extra-seq', '0'];
const COMMON = [
  '--output-tokens',
  '8',
  '--prompt-tokens',
  '8',
  '--no-server-metrics',
  '--gpu-source',
  'none',
  '--client-budget-ms',
  '1000',
  '--json',
  '-',
  '--no-save',
];

let pgServer: TestPostgres;
let db: string;
let sim: SimProcess;
let worker: Started;
let boss: PgBoss;
let thief: Server;
let thiefUrl: string;
const stolen: string[] = [];

const query = <T>(sql: string, params: unknown[] = []): Promise<T[]> => queryDatabase<T>(db, sql, params);

const startWorker = async (name: string): Promise<Started> => {
  const w = startGoodput(['worker', '--database-url', db, '--name', name], { GOODPUT_API_KEY: API_KEY });
  await w.waitFor(new RegExp(`worker ${name} ready`), 60_000);
  return w;
};

/** Resolves with each new share job's key as the coordinator puts it on the queue (polled every 20 ms, at most `ms`). */
async function nextShare(since: Date, ms = 60_000): Promise<string> {
  for (let t = 0; t < ms / 20; t++) {
    const [row] = await query<{ share: string }>(
      "SELECT data->>'share' AS share FROM pgboss.job WHERE name = 'goodput-level-shares' AND created_on >= $1 ORDER BY created_on LIMIT 1",
      [since],
    );
    if (row) return row.share;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no share job appeared');
}

beforeAll(async () => {
  pgServer = await startTestPostgres();
  db = await pgServer.createDatabase();
  sim = await spawnSimProcess(SCHEDULE);
  // A server that should never hear from a worker: it records every Authorization header it is sent.
  thief = createServer((req, res) => {
    stolen.push(String(req.headers.authorization));
    res.end('{}');
  });
  await new Promise<void>((r) => thief.listen(0, '127.0.0.1', r));
  thiefUrl = `http://127.0.0.1:${(thief.address() as AddressInfo).port}`;
  worker = await startWorker('h1');
  boss = new PgBoss({ connectionString: db, max: 2, schedule: false, supervise: false, migrate: false });
  boss.on('error', () => {});
  await boss.start();
}, patient(180_000));

afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true });
  await worker?.stop();
  await new Promise((r) => thief?.close(r));
  await sim?.stop();
  pgServer?.stop();
});

/** A share job as the coordinator would write one, aimed at `url`. */
function job(url: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const sweep = randomBytes(12).toString('hex');
  const spec = sweepSpecSchema.parse({
    url,
    levels: [1],
    requestsPerLevel: 1,
    outputTokens: 8,
    promptTokens: 8,
    warmup: 0,
    serverMetrics: false,
    gpuSource: 'none',
  });
  const { apiKey: _none, ...withoutKey } = spec;
  const concurrency = (over['concurrency'] as number | undefined) ?? 1;
  return {
    share: `${sweep}/${concurrency}/0`,
    sweep,
    index: 0,
    count: 1,
    concurrency,
    requests: 1,
    promptOffset: 0,
    spec: withoutKey,
    needsApiKey: true,
    model: 'm',
    dialect: 'vllm',
    runId: 'r',
    connections: 1,
    expiresAtMs: Date.now() + 60_000,
    ...over,
  };
}

describe('a worker and its coordinator, against someone who can write their database', () => {
  it(
    'forged jobs (unsigned, another secret, signed past the limits) are refused with one line each; the API key goes nowhere',
    async () => {
      const unsigned = job(thiefUrl);
      await boss.send('goodput-level-shares', unsigned);
      await worker.waitFor(/refused job \S+ from the queue: its signature does not check \(unsigned\); nothing was sent/, 20_000);
      const foreign = job(thiefUrl);
      await boss.send('goodput-level-shares', {
        ...foreign,
        mac: new SweepKey(Buffer.from('c3'.repeat(32), 'hex'), foreign['sweep'] as string).sign('job', foreign),
      });
      await worker.waitFor(/its signature does not check \(not signed with this worker's GOODPUT_WORKER_SECRET\)/, 20_000);
      const huge = job(thiefUrl, { concurrency: 200_000, requests: 2_000_000, connections: 200_000 });
      await boss.send('goodput-level-shares', { ...huge, mac: new SweepKey(Buffer.from(SECRET, 'hex'), huge['sweep'] as string).sign('job', huge) });
      await worker.waitFor(/signed, but outside the limits: concurrency: Too big/, 20_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(stolen).toEqual([]);
      expect(worker.out().stderr.match(/refused job/g)).toHaveLength(3);
      expect(worker.child.exitCode).toBeNull();
    },
    patient(60_000),
  );

  it(
    "a flood of rows outside a share's sequence numbers: the level keeps its true count and is invalid, naming a row",
    async () => {
      const since = new Date();
      const run = runGoodput(
        ['sweep', '--url', sim.url, ...COMMON, '--levels', '2', '--requests-per-level', '10', '--workers', '1', '--database-url', db, '--workers-wait', '30'],
        {},
        120_000,
      );
      const share = await nextShare(since);
      await query('INSERT INTO worker_records (share, seq, record) SELECT $1, 100000 + g, \'{"seq":0}\'::jsonb FROM generate_series(1, 60000) AS g', [share]);
      const done = await run;
      expect(done.code, done.stderr).toBe(5); // every level invalid, as the test makes it: the documented exit for no valid level
      const level = (JSON.parse(done.stdout) as SweepResult).levels[0] as LevelResult;
      expect(level.requests).toBe(10);
      expect(level.invalid).toBe(true);
      expect(level.invalidReason).toBe('10 of 10 requests failed (10 client-lost)');
      expect(level.shares?.[0]?.lost).toMatch(
        /^worker_records holds 60000 row\(s\) of share \S+ outside its sequence numbers \(first: seq 100001\): written by someone other than its worker/,
      );
      // The sweep's rows are gone once it ends.
      expect(await query<{ n: number }>('SELECT count(*)::int AS n FROM worker_records WHERE share = $1', [share])).toEqual([{ n: 0 }]);
    },
    patient(120_000),
  );

  it(
    'record rows of 100 MB (about 1 MB each in the table, compressed) are refused before they are read: the level is invalid naming one, its --json is written, the coordinator stays small',
    async () => {
      // Someone with the database's login bloats the worker's rows as they are written.
      const BLOATED = 3;
      await query(`CREATE OR REPLACE FUNCTION bloat_records() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.seq < ${BLOATED} THEN NEW.record := jsonb_build_object('seq', NEW.seq, 'pad', repeat('a', 100000000)); END IF; RETURN NEW; END $$`);
      await query('CREATE TRIGGER bloat_records BEFORE INSERT ON worker_records FOR EACH ROW EXECUTE FUNCTION bloat_records()');
      try {
        const json = join(mkdtempSync(join(tmpdir(), 'goodput-bloat-')), 'result.json');
        const toFile = COMMON.map((a, i) => (COMMON[i - 1] === '--json' ? json : a));
        const coordinator = startGoodput([
          'sweep',
          '--url',
          sim.url,
          ...toFile,
          '--levels',
          '1',
          '--requests-per-level',
          '4',
          '--warmup',
          '0',
          '--workers',
          '1',
          '--database-url',
          db,
          '--workers-wait',
          '30',
        ]);
        // Its peak resident memory, read while it runs (VmHWM only grows).
        let peakKb = 0;
        const sample = setInterval(() => {
          try {
            peakKb = Math.max(peakKb, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${coordinator.child.pid}/status`, 'utf8'))?.[1] ?? 0));
          } catch {
            /* exited */
          }
        }, 50);
        const code = await coordinator.closed.finally(() => clearInterval(sample));
        process.stderr.write(`${BLOATED} record rows of 100 MB → coordinator peak RSS ${(peakKb / 1024).toFixed(0)} MB\n`);
        expect(code, coordinator.out().stderr).toBe(5); // every level invalid, as the test makes it
        const level = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8'))).levels[0] as LevelResult;
        expect(level.invalid).toBe(true);
        expect(level.requests).toBe(4);
        expect(level.failures['client-lost']).toBe(BLOATED);
        expect(level.shares?.[0]?.lost).toMatch(/^worker_records row \(share \S+, seq 0\) holds 1000000\d\d bytes, above 16777216: refused unread/);
        // Nothing of a refused row came into the process (a row read whole is a few hundred MB in a Node heap).
        expect(peakKb / 1024).toBeLessThan(400);
      } finally {
        await query('DROP TRIGGER bloat_records ON worker_records');
        await query('DROP FUNCTION bloat_records()');
      }
    },
    patient(180_000),
  );

  it(
    "rows pre-inserted at a share's own sequence numbers: the worker's write fails loudly and the level is not reported",
    async () => {
      const since = new Date();
      const run = runGoodput(
        ['sweep', '--url', sim.url, ...COMMON, '--levels', '2', '--requests-per-level', '10', '--workers', '1', '--database-url', db, '--workers-wait', '30'],
        {},
        120_000,
      );
      const share = await nextShare(since);
      await query(`INSERT INTO worker_records (share, seq, record) SELECT $1, g, jsonb_build_object('seq', g) FROM generate_series(0, 19) AS g`, [share]);
      const done = await run;
      expect(done.code).not.toBe(0);
      expect(done.stderr).toMatch(
        /worker_records already held a row at one of share \S+'s sequence numbers \(Key \(share, seq\)=\(\S+, \d+\) already exists\.\): another writer put it there; the share is refused/,
      );
      expect(done.stdout).not.toMatch(/"ttftMs"/);
    },
    patient(120_000),
  );

  it(
    'a coordinator SIGKILLed mid-share: the worker abandons the share within seconds and takes the next sweep',
    async () => {
      const since = new Date();
      const coordinator = startGoodput([
        'sweep',
        '--url',
        sim.url,
        ...COMMON,
        '--levels',
        '2',
        '--requests-per-level',
        '2000',
        '--workers',
        '1',
        '--database-url',
        db,
        '--workers-wait',
        '30',
      ]);
      const share = await nextShare(since);
      for (let i = 0; i < 300; i++) {
        const [row] = await query<{ n: number }>('SELECT count(*)::int AS n FROM worker_records WHERE share = $1', [share]);
        if ((row?.n ?? 0) >= 4) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const killedAt = Date.now();
      await coordinator.stop('SIGKILL');
      await worker.waitFor(new RegExp(`share ${share}: its coordinator stopped answering \\(no signed heartbeat for 2 s\\): share abandoned`), 20_000);
      const abandonedMs = Date.now() - killedAt;
      process.stderr.write(`coordinator SIGKILLed → share abandoned after ${abandonedMs} ms\n`);
      expect(abandonedMs).toBeLessThan(10_000);
      // Nothing more is sent for it: its rows stop growing.
      await new Promise((r) => setTimeout(r, 700));
      const [a] = await query<{ n: number }>('SELECT count(*)::int AS n FROM worker_records WHERE share = $1', [share]);
      await new Promise((r) => setTimeout(r, 1500));
      const [b] = await query<{ n: number }>('SELECT count(*)::int AS n FROM worker_records WHERE share = $1', [share]);
      expect(b?.n).toBe(a?.n);
      expect(a?.n).toBeLessThan(2000);
      const next = await runGoodput(
        ['sweep', '--url', sim.url, ...COMMON, '--levels', '1', '--requests-per-level', '2', '--workers', '1', '--database-url', db, '--workers-wait', '30'],
        {},
        60_000,
      );
      expect(next.code, next.stderr).toBe(0);
    },
    patient(120_000),
  );

  it(
    'a worker stopped mid-share ends at once; without the secret a worker and a coordinator refuse to start, saying how to make one',
    async () => {
      const since = new Date();
      const coordinator = startGoodput([
        'sweep',
        '--url',
        sim.url,
        ...COMMON,
        '--levels',
        '2',
        '--requests-per-level',
        '2000',
        '--workers',
        '1',
        '--database-url',
        db,
        '--workers-wait',
        '30',
      ]);
      const share = await nextShare(since);
      for (let i = 0; i < 300; i++) {
        const [row] = await query<{ n: number }>('SELECT count(*)::int AS n FROM worker_records WHERE share = $1', [share]);
        if ((row?.n ?? 0) >= 4) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const stoppedAt = Date.now();
      expect(await worker.stop('SIGTERM')).toBe(0);
      const stopMs = Date.now() - stoppedAt;
      process.stderr.write(`worker SIGTERMed mid-share → exited after ${stopMs} ms\n`);
      expect(stopMs).toBeLessThan(10_000);
      await coordinator.stop('SIGINT');
      worker = await startWorker('h1');

      const noSecret = await runGoodput(['worker', '--database-url', db, '--name', 'x'], { GOODPUT_WORKER_SECRET: '' });
      expect(noSecret.code).toBe(2);
      expect(noSecret.stderr).toMatch(/goodput worker needs the workers' secret: make one with `goodput worker --init`/);
      const short = await runGoodput(['sweep', '--url', sim.url, '--levels', '1', '--workers', '1', '--database-url', db], { GOODPUT_WORKER_SECRET: 'abcd' });
      expect(short.code).toBe(2);
      expect(short.stderr).toMatch(/GOODPUT_WORKER_SECRET is not a secret of at least 32 bytes in hex/);
      const init = await runGoodput(['worker', '--init']);
      expect(init.code).toBe(0);
      expect(init.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    },
    patient(120_000),
  );

  it(
    "a worker that keeps its heartbeat but never finishes: lost at its share's deadline; Ctrl-C on the coordinator returns at once",
    async () => {
      await worker.stop();
      // The ghost: a live row in workers, beating; it takes each share, says ready (signed, as a real worker would) and never sends.
      const key = (sweep: string) => new SweepKey(Buffer.from(SECRET, 'hex'), sweep);
      const stopBeating = await signedWorkerRow(db, SECRET, 'ghost');
      const ghost = new PgBoss({ connectionString: db, max: 2, schedule: false, supervise: false, migrate: false });
      ghost.on('error', () => {});
      await ghost.start();
      await ghost.work<{ share: string; sweep: string; concurrency: number; index: number }>(
        'goodput-level-shares',
        { pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          if (!job) return;
          const { share, sweep, concurrency, index } = job.data;
          const detail = { status: 'ready', clock: { offsetMs: 0, uncertaintyMs: 1, originMs: performance.timeOrigin } };
          await query('INSERT INTO worker_shares (share, sweep, level, share_index, worker, status, detail, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
            share,
            sweep,
            concurrency,
            index,
            'ghost',
            'ready',
            JSON.stringify(detail),
            key(sweep).sign('share', { share, worker: 'ghost', detail }),
          ]);
          await query("SELECT pg_notify('goodput_share', '{}')");
        },
      );
      try {
        const started = Date.now();
        const late = await runGoodput(
          [
            'sweep',
            '--url',
            sim.url,
            ...COMMON,
            '--levels',
            '1',
            '--requests-per-level',
            '3',
            '--warmup',
            '0',
            '--timeout-s',
            '1',
            '--workers',
            '1',
            '--database-url',
            db,
            '--workers-wait',
            '30',
          ],
          {},
          90_000,
        );
        process.stderr.write(`heartbeat-only worker → level ended after ${Date.now() - started} ms\n`);
        expect(late.code, late.stderr).toBe(5); // every level invalid, as the test makes it: the documented exit for no valid level
        const level = (JSON.parse(late.stdout) as SweepResult).levels[0] as LevelResult;
        expect(level.invalid).toBe(true);
        expect(level.failures['client-lost']).toBe(3);
        expect(level.shares?.[0]?.lost).toMatch(/^worker ghost did not finish share \S+ by its deadline \(8 s from its plan\), whatever its heartbeat said/);

        const since = new Date();
        const stuck = startGoodput([
          'sweep',
          '--url',
          sim.url,
          ...COMMON,
          '--levels',
          '1',
          '--requests-per-level',
          '3',
          '--warmup',
          '0',
          '--workers',
          '1',
          '--database-url',
          db,
          '--workers-wait',
          '30',
        ]);
        const share = await nextShare(since);
        for (let i = 0; i < 200; i++) {
          const [row] = await query<{ status: string }>('SELECT status FROM worker_shares WHERE share = $1', [share]);
          if (row?.status === 'ready') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await new Promise((r) => setTimeout(r, 1000));
        const interruptedAt = Date.now();
        expect(await stuck.stop('SIGINT')).toBe(130);
        const stopMs = Date.now() - interruptedAt;
        process.stderr.write(`coordinator SIGINTed waiting on a heartbeat-only worker → exited after ${stopMs} ms\n`);
        expect(stopMs).toBeLessThan(10_000);
      } finally {
        await ghost.stop({ graceful: false, wait: true });
        await stopBeating();
        worker = await startWorker('h1');
      }
    },
    patient(180_000),
  );

  it(
    'PostgreSQL stopped mid-level and started again: the coordinator writes the level it finished and ends with one line and exit 6, the worker says so once, reconnects and takes the next sweep',
    async () => {
      const since = new Date();
      const json = join(mkdtempSync(join(tmpdir(), 'goodput-pg-stop-')), 'result.json');
      const toFile = COMMON.map((a, i) => (COMMON[i - 1] === '--json' ? json : a));
      const coordinator = startGoodput([
        'sweep',
        '--url',
        sim.url,
        ...toFile,
        '--levels',
        '1,2',
        '--requests-per-level',
        '40',
        '--workers',
        '1',
        '--database-url',
        db,
        '--workers-wait',
        '30',
      ]);
      // The database goes away once level 2's share has written a few records (level 1 is then over).
      let share = '';
      for (let i = 0; i < 1200 && !share; i++) {
        const [row] = await query<{ share: string }>(
          "SELECT data->>'share' AS share FROM pgboss.job WHERE name = 'goodput-level-shares' AND created_on >= $1 AND data->>'share' LIKE '%/2/0'",
          [since],
        );
        if (row) share = row.share;
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(share).toMatch(/\/2\/0$/);
      for (let i = 0; i < 300; i++) {
        const [row] = await query<{ n: number }>('SELECT count(*)::int AS n FROM worker_records WHERE share = $1', [share]);
        if ((row?.n ?? 0) >= 2) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const downAt = Date.now();
      pgServer.pause();
      try {
        const code = await coordinator.closed;
        process.stderr.write(`database stopped mid-level → coordinator exited ${code} after ${Date.now() - downAt} ms\n`);
        const err = coordinator.out().stderr;
        expect(code, err).toBe(6); // EXIT.clientStopped: the documented code for our side going away mid-sweep
        expect(err).toMatch(/sweep stopped: the workers' database stopped answering during the concurrency-2 level \(/);
        expect(err).not.toMatch(/\n\s+at /);
        expect(existsSync(json)).toBe(true);
        const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
        expect(result.run.status).toBe('stopped');
        expect(result.run.stopReason).toMatch(/^the workers' database stopped answering during the concurrency-2 level .*Level 1 is complete\.$/s);
        expect(result.levels.map((l) => l.concurrency)).toEqual([1]);
        expect(result.levels[0]?.requests).toBe(40);
        expect(result.levels[0]?.failed).toBe(0);
        await worker.waitFor(/worker h1: the database stopped answering \(/, 20_000);
        expect(worker.child.exitCode).toBeNull();
      } finally {
        pgServer.resume();
      }
      await worker.waitFor(/worker h1: the database answers again; taking shares/, 30_000);
      expect(worker.out().stderr.match(/the database stopped answering/g)).toHaveLength(1);
      // Its LISTEN connection is back too: it hears the next sweep's start.
      await new Promise((r) => setTimeout(r, 1500));
      const next = await runGoodput(
        ['sweep', '--url', sim.url, ...COMMON, '--levels', '1', '--requests-per-level', '2', '--workers', '1', '--database-url', db, '--workers-wait', '30'],
        {},
        90_000,
      );
      expect(next.code, next.stderr).toBe(0);
    },
    patient(180_000),
  );

  it(
    "a signed serverFailure the coordinator's own probe does not confirm does not stop the sweep: the share's requests fail, the level is invalid",
    async () => {
      await worker.stop();
      const key = (sweep: string) => new SweepKey(Buffer.from(SECRET, 'hex'), sweep);
      const put = (j: { share: string; sweep: string; concurrency: number; index: number }, detail: object) =>
        query(
          'INSERT INTO worker_shares (share, sweep, level, share_index, worker, status, detail, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (share) DO UPDATE SET status = $6, detail = $7, mac = $8',
          [
            j.share,
            j.sweep,
            j.concurrency,
            j.index,
            'liar',
            (detail as { status: string }).status,
            JSON.stringify(detail),
            key(j.sweep).sign('share', { share: j.share, worker: 'liar', detail }),
          ],
        ).then(() => query("SELECT pg_notify('goodput_share', '{}')"));
      const stopBeating = await signedWorkerRow(db, SECRET, 'liar');
      const liar = new PgBoss({ connectionString: db, max: 2, schedule: false, supervise: false, migrate: false });
      liar.on('error', () => {});
      await liar.start();
      await liar.work<{ share: string; sweep: string; concurrency: number; index: number }>(
        'goodput-level-shares',
        { pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          if (!job) return;
          const clock = { offsetMs: 0, uncertaintyMs: 1, originMs: performance.timeOrigin };
          await put(job.data, { status: 'ready', clock });
          setTimeout(() => {
            void put(job.data, {
              status: 'done',
              clock,
              loopDelayMs: null,
              busyPct: 1,
              waitedForSlot: 0,
              serverFailure: 'the server stopped answering (forged)',
            });
          }, 1500);
        },
      );
      try {
        const r = await runGoodput(
          [
            'sweep',
            '--url',
            sim.url,
            ...COMMON,
            '--levels',
            '1,2',
            '--requests-per-level',
            '3',
            '--warmup',
            '0',
            '--workers',
            '1',
            '--database-url',
            db,
            '--workers-wait',
            '30',
          ],
          {},
          90_000,
        );
        expect(r.code, r.stderr).toBe(5); // every level invalid, as the test makes it: the documented exit for no valid level
        const result = JSON.parse(r.stdout) as SweepResult;
        expect(result.run.status).toBe('complete');
        expect(result.levels).toHaveLength(2);
        for (const l of result.levels) {
          expect(l.invalid).toBe(true);
          expect(l.failures['client-lost']).toBe(3);
        }
      } finally {
        await liar.stop({ graceful: false, wait: true });
        await stopBeating();
        worker = await startWorker('h1');
      }
    },
    patient(120_000),
  );
});
