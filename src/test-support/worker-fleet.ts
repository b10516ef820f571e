/**
 * A real fleet for the workers' tests: a PostgreSQL server, the simulator in its
 * own process on a schedule whose 10 % is several ms (TTFT 80 ms, TPOT 20 ms), and
 * `goodput worker` processes on loopback sharing one secret. Registered as
 * beforeAll/afterAll hooks of the calling file.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { type Started, runGoodput, startGoodput } from './goodput-process.js';
import { type TestPostgres, queryDatabase, startTestPostgres } from './postgres.js';
import { SweepKey, registryKey } from '../workers/index.js';

const SCHEDULE = ['--prefill-base-ms', '80', '--prefill-ms-per-token', '0', '--decode-step-ms', '20', '--decode-ms-per-extra-seq', '0'];
export const FLEET_SWEEP_ARGS = [
  '--output-tokens',
  '16',
  '--prompt-tokens',
  '16',
  '--no-server-metrics',
  '--gpu-source',
  'none',
  '--client-budget-ms',
  '1000',
  '--json',
  '-',
  '--no-save',
];

export interface WorkerFleet {
  pg(): TestPostgres;
  db(): string;
  sim(): SimProcess;
  readonly workers: Map<string, Started>;
  startWorker(name: string, env?: NodeJS.ProcessEnv): Promise<void>;
  /** A sweep against the fleet's simulator that must exit 0; its JSON result. */
  sweep(args: readonly string[]): Promise<SweepResult>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export function useWorkerFleet(names: readonly string[]): WorkerFleet {
  // The workers' secret every process of the file starts with (they inherit this process's environment).
  process.env['GOODPUT_WORKER_SECRET'] = 'a1'.repeat(32);
  let server: TestPostgres | undefined;
  let db = '';
  let sim: SimProcess | undefined;
  const workers = new Map<string, Started>();
  const fleet: WorkerFleet = {
    pg: () => server as TestPostgres,
    db: () => db,
    sim: () => sim as SimProcess,
    workers,
    async startWorker(name, env = {}) {
      const w = startGoodput(['worker', '--database-url', db, '--name', name], env);
      workers.set(name, w);
      await w.waitFor(new RegExp(`worker ${name} ready`), 60_000);
    },
    async sweep(args) {
      const r = await runGoodput(['sweep', '--url', fleet.sim().url, ...FLEET_SWEEP_ARGS, ...args], {}, 180_000);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as SweepResult;
    },
    query: <T>(sql: string, params: unknown[] = []) => queryDatabase<T>(db, sql, params),
  };
  beforeAll(async () => {
    server = await startTestPostgres();
    db = await server.createDatabase();
    sim = await spawnSimProcess(SCHEDULE);
    await Promise.all(names.map((n) => fleet.startWorker(n)));
  }, 180_000);
  afterAll(async () => {
    await Promise.all([...workers.values()].map((w) => w.stop()));
    await sim?.stop();
    server?.stop();
  });
  return fleet;
}

/**
 * Keeps a row in `workers` for `name` as a worker holding the secret would (its
 * heartbeat signed over the database's clock, every 400 ms) until the returned
 * stop is called: a live worker that is no goodput process (a ghost, a liar).
 */
export async function signedWorkerRow(url: string, secretHex: string, name: string, host = 'nowhere'): Promise<() => Promise<void>> {
  const key = registryKey(Buffer.from(secretHex, 'hex'));
  const me = { name, host, pid: 1, cores: 1, version: 'x', clockOffsetMs: 0, clockUncertaintyMs: 1 };
  const beat = async () => {
    const [now] = await queryDatabase<{ ms: number }>(url, 'SELECT (extract(epoch from clock_timestamp()) * 1000)::float8 AS ms');
    const beatMs = Math.round(Number(now?.ms));
    await queryDatabase(
      url,
      `INSERT INTO workers (name, host, pid, cores, version, clock_offset_ms, clock_uncertainty_ms, beat_ms, mac) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (name) DO UPDATE SET seen_at = now(), host = $2, pid = $3, cores = $4, version = $5, clock_offset_ms = $6, clock_uncertainty_ms = $7, beat_ms = $8, mac = $9`,
      [me.name, me.host, me.pid, me.cores, me.version, me.clockOffsetMs, me.clockUncertaintyMs, beatMs, key.sign('worker', { ...me, beatMs })],
    );
  };
  await beat();
  const timer = setInterval(() => {
    void beat().catch(() => {});
  }, 400);
  return async () => {
    clearInterval(timer);
    await queryDatabase(url, 'DELETE FROM workers WHERE name = $1', [name]);
  };
}

/** The key a sweep's rows are signed with, for a test that plays a holder of the secret. */
export const sweepKeyOf = (secretHex: string, sweep: string): SweepKey => new SweepKey(Buffer.from(secretHex, 'hex'), sweep);
