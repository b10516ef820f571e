/**
 * A real PostgreSQL for tests: Debian's binaries (/usr/lib/postgresql/N/bin,
 * or GOODPUT_PG_BIN), a fresh data directory in a temp dir, a free loopback
 * port, stopped and removed in teardown. initdb refuses to run as root, so as
 * root (CI) the server runs as the `postgres` user via runuser. When Postgres
 * cannot start this throws: the suite fails, it never skips.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** `postgres://goodput@127.0.0.1:PORT/postgres`. */
  url: string;
  /** A new empty database on this server, as a URL. */
  createDatabase(): Promise<string>;
  stop(): void;
  /** Stops the server (fast shutdown) keeping its data, and starts it again on the same port: a database outage. */
  pause(): void;
  resume(): void;
}

function binDir(): string {
  const fromEnv = process.env['GOODPUT_PG_BIN'];
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error(
      "PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb. Install Debian's postgresql (CI: apt-get install -y postgresql) or set GOODPUT_PG_BIN.",
    );
  }
  return join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr || r.stdout}`);
}

/** Starts a throwaway PostgreSQL on 127.0.0.1. Bounded: three ports tried, 60 s per step. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'goodput-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = join(dir, 'data');
  const log = join(dir, 'log');
  const stop = () => {
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      /* not running */
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(join(bin, 'initdb'), ['-D', data, '-U', 'goodput', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    let port = 0;
    for (let attempt = 0; attempt < 3 && port === 0; attempt++) {
      const p = await freePort();
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '30', '-o', `-p ${p} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
        port = p;
      } catch (err) {
        if (attempt === 2) throw err;
      }
    }
    const url = `postgres://goodput@127.0.0.1:${port}/postgres`;
    let n = 0;
    return {
      url,
      stop,
      pause: () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']),
      resume: () =>
        run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '30', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']),
      async createDatabase() {
        const name = `t${process.pid}_${++n}`;
        run(join(bin, 'psql'), [
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'goodput',
          '-d',
          'postgres',
          '-v',
          'ON_ERROR_STOP=1',
          '-c',
          `CREATE DATABASE ${name}`,
        ]);
        return `postgres://goodput@127.0.0.1:${port}/${name}`;
      },
    };
  } catch (err) {
    const logText = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    stop();
    throw new Error(`could not start the test PostgreSQL: ${(err as Error).message}${logText ? `\n${logText}` : ''}`);
  }
}

/** One query on its own connection to `url`, closed after: for tests that look into a database. */
export async function queryDatabase<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}
