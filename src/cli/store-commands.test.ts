/**
 * The store commands as a user runs them, against the simulator in its own
 * process: servers add/list/check/remove, sweep --save and runs
 * list/show/export (in-process, for speed), then as real processes the demo
 * storing its run and the single-writer rule of the embedded database (a
 * running goodput serve is used through its API; a sweep holding it answers
 * reads through its read door and writes are refused naming it).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { runGoodput, startGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `goodput-${name}-`));
const quick = ['--levels', '1,2', '--requests-per-level', '2', '--output-tokens', '32', '--prompt-tokens', '8'];
const FAST = ['--prefill-base-ms', '2', '--prefill-ms-per-token', '0', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0'];

/** One embedded database for the in-process tests (a fresh one costs an initdb). */
const dir = tmp('store-commands');
const data = join(dir, 'db');

beforeAll(async () => {
  sim = await spawnSimProcess(FAST);
});
afterAll(async () => {
  await sim.stop();
});

describe('goodput servers', () => {
  it(
    'adds a running and a stopped server, never printing the API key',
    async () => {
      const ok = await cli(['servers', 'add', 'sim', sim.url, '--gpu', 'SimGPU', '--hourly-cost', '2.5', '--api-key-env', 'SIM_KEY', '--data', data], {
        SIM_KEY: 'sk-cli-secret-77',
      });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/^registered sim +http:\/\/127\.0\.0\.1:\d+ +running \(model goodput-sim-1\) · checked .* · SimGPU · \$2\.50\/h · API key set/);
      const down = await cli(['servers', 'add', 'down', 'http://127.0.0.1:9', '--data', data]);
      expect(down.stdout).toMatch(/down .* stopped · checked .*\n +nothing is listening at 127\.0\.0\.1:9 \(connection refused\)/);
      const list = await cli(['servers', 'list', '--json', '--data', data]);
      expect(JSON.parse(list.stdout).map((s: { name: string; hasApiKey: boolean }) => [s.name, s.hasApiKey])).toEqual([
        ['down', false],
        ['sim', true],
      ]);
      for (const r of [ok, down, list]) expect(r.stdout + r.stderr).not.toContain('sk-cli-secret-77');
      const check = await cli(['servers', 'check', 'sim', '--data', data]);
      expect(check.stdout).toMatch(/sim .* running/);
      const removed = await cli(['servers', 'remove', 'down', '--data', data]);
      expect(removed.stdout).toMatch(/removed down \(http:\/\/127\.0\.0\.1:9\); its runs are kept/);
    },
    patient(150_000),
  );
  const bad: Array<[string, string[], RegExp]> = [
    ['a name with a space', ['servers', 'add', 'my box', 'http://127.0.0.1:1'], /<name>: name must be 1–64 letters/],
    ['a URL that is not one', ['servers', 'add', 'x', 'not-a-url'], /<url>: baseUrl must be an http\(s\) URL/],
    ['a negative hourly cost', ['servers', 'add', 'x', 'http://127.0.0.1:1', '--hourly-cost', '-1'], /--hourly-cost: '-1' must be at least 0/],
    [
      'an unset key variable',
      ['servers', 'add', 'x', 'http://127.0.0.1:1', '--api-key-env', 'NOPE_NOT_SET'],
      /--api-key-env: the variable NOPE_NOT_SET is not set/,
    ],
    [
      'a name of digits only',
      ['servers', 'add', '42', 'http://127.0.0.1:1'],
      /<name>: name must contain a letter or symbol, not only digits: it would read as a server id/,
    ],
    ['a duplicate name', ['servers', 'add', 'sim', 'http://127.0.0.1:1'], /a server named "sim" is already registered/],
    ['an unknown server', ['servers', 'remove', 'ghost'], /no server named "ghost" is registered/],
    ['both store flags', ['servers', 'list', '--database-url', 'postgres://u@h/db'], /either --data \(embedded\) or --database-url/],
  ];
  for (const [what, args, message] of bad) {
    it(`refuses ${what} (exit 2)`, async () => {
      const r = await cli([...args, '--data', data]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    });
  }
});

describe('sweep --save and goodput runs', () => {
  it(
    'stores a sweep whose export is the same result, readable by goodput cards',
    async () => {
      const json = join(dir, 'result.json');
      const r = await cli(['sweep', '--url', sim.url, ...quick, '--data', data, '--json', json]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/level c=1 stored in run 1/);
      expect(r.stderr).toContain(`stored as run 1 (complete) in embedded database at ${data}; see it with: goodput serve --data "${data}"`);
      const list = await cli(['runs', 'list', '--data', data]);
      expect(list.stdout).toMatch(/^ID +Status +Started +Server +Model +Endpoint +Levels +Peak\n1 +complete .* chat +2\/2 +(?:[\d.]+ tok\/s @ c=\d|—)/);
      const show = await cli(['runs', 'show', '1', '--data', data]);
      expect(show.stdout).toMatch(/run 1 · complete ·[\s\S]*Throughput tok\/s[\s\S]*\nEngine {4}/);
      const out = join(dir, 'export.json');
      const raw = join(dir, 'export.jsonl');
      expect((await cli(['runs', 'export', '1', '--out', out, '--raw', raw, '--data', data])).code).toBe(0);
      const original = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(sweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')))).toEqual(original);
      expect(readFileSync(raw, 'utf8').trim().split('\n')).toHaveLength(2 * (1 + 2));
      const cards = await cli(['cards', out]);
      expect(JSON.parse(cards.stdout)).toEqual(original.cards);
      // --out that is a directory: exit 2 naming it, and the raw file is not written either.
      const outDir = join(dir, 'an-out-dir');
      mkdirSync(outDir);
      const rawToo = join(dir, 'not-written.jsonl');
      const refused = await cli(['runs', 'export', '1', '--out', outDir, '--raw', rawToo, '--data', data]);
      expect([refused.code, refused.stderr]).toEqual([2, `goodput: ${outDir} is a directory; give a file path\n`]);
      expect(existsSync(rawToo)).toBe(false);
      expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    },
    patient(150_000),
  );
  it(
    'does not save when no store is configured, and does with --save',
    async () => {
      const home = tmp('home');
      const plain = await cli(['sweep', '--url', sim.url, ...quick], { GOODPUT_HOME: home });
      expect(plain.code).toBe(0);
      expect(plain.stderr).not.toMatch(/stored as run/);
      const saved = await cli(['sweep', '--url', sim.url, ...quick, '--save'], { GOODPUT_HOME: home });
      expect(saved.stderr).toContain(
        `stored as run 1 (complete) in embedded database at ${join(home, 'db')}; see it with: goodput serve   (then open http://127.0.0.1:7878/#/runs/1)`,
      );
      // Now the default store exists, so it is configured: later sweeps save without --save.
      const later = await cli(['sweep', '--url', sim.url, ...quick], { GOODPUT_HOME: home });
      expect(later.stderr).toMatch(/stored as run 2/);
    },
    patient(150_000),
  );
  it('names a bad run id and a run that does not exist (exit 2)', async () => {
    const bad = await cli(['runs', 'show', 'abc', '--data', data]);
    expect([bad.code, bad.stderr]).toEqual([2, "goodput: <id>: 'abc' is not a run id (a positive integer; see goodput runs list)\n"]);
    const missing = await cli(['runs', 'export', '9', '--data', data]);
    expect([missing.code, missing.stderr]).toEqual([2, 'goodput: there is no run 9\n']);
  });
});

describe('as separate processes', () => {
  it(
    'the demo stores its run and says how to see it',
    async () => {
      const home = tmp('demo');
      const r = await runGoodput(['demo', '--levels', '1,2', '--requests-per-level', '2', '--output-tokens', '32'], { GOODPUT_HOME: home }, 120_000);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /stored as run 1 \(complete\) in embedded database at .*; see it with: goodput serve +\(then open http:\/\/127\.0\.0\.1:7878\/#\/runs\/1\)/,
      );
    },
    patient(150_000),
  );
  it(
    'while goodput serve holds it, commands and sweeps go through its API',
    async () => {
      const data = tmp('serve');
      const serve = startGoodput(['serve', '--port', '0', '--data', data]);
      try {
        const url = (await serve.waitFor(/goodput serve: (http:\/\/127\.0\.0\.1:\d+)\//))[1] as string;
        const add = await runGoodput(['servers', 'add', 'sim', sim.url, '--data', data]);
        expect(add.code).toBe(0);
        const r = await runGoodput(['sweep', '--url', sim.url, ...quick, '--data', data]);
        expect(r.code).toBe(0);
        expect(r.stderr).toContain(`stored as run 1 (complete) in the store of goodput serve at ${url}; see it at ${url}/#/runs/1`);
        const runs = (await (await fetch(`${url}/api/runs`)).json()) as Array<{ id: number; serverName: string }>;
        expect(runs).toMatchObject([{ id: 1, serverName: 'sim' }]);
        const second = startGoodput(['serve', '--port', '0', '--data', data]);
        expect(await second.closed).toBe(2);
        expect(second.out().stderr).toMatch(/goodput serve is already running for this store at http/);
      } finally {
        expect(await serve.stop()).toBe(0);
      }
    },
    patient(150_000),
  );
  it(
    'while a sweep holds it, reads go through the sweep (token-guarded, exports after its level) and writes are refused with who holds it',
    async () => {
      const data = tmp('busy');
      const first = await runGoodput(['sweep', '--url', sim.url, ...quick, '--data', data]);
      expect(first.code).toBe(0);
      const slow = await spawnSimProcess(['--decode-step-ms', '20', '--decode-ms-per-extra-seq', '20']);
      // Level 1 takes ~10 s (an export waits for it to end); level 16 (each step 20 ms + 20 ms per extra stream) ~80 s, and the test stops it.
      const sweep = startGoodput(['sweep', '--url', slow.url, '--levels', '1,16', '--output-tokens', '64', '--prompt-tokens', '8', '--data', data]);
      try {
        await sweep.waitFor(/server answers/);
        // The door's token is in the lock file only, readable by this user only; without it the door answers nothing.
        const lockPath = `${data}.lock`;
        expect(statSync(lockPath).mode & 0o777).toBe(0o600);
        const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { url: string; token: string };
        expect(lock.token.length).toBeGreaterThanOrEqual(32);
        expect((await fetch(`${lock.url}/api/runs`)).status).toBe(401);
        expect((await fetch(`${lock.url}/api/runs`, { headers: { authorization: `Bearer ${lock.token}x` } })).status).toBe(401);
        const post = await fetch(`${lock.url}/api/servers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${lock.token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(post.status).toBe(503);
        // A write, while the lock file just read says the sweep holds the store: refused, naming it.
        const add = await runGoodput(['servers', 'add', 'other', 'http://127.0.0.1:9', '--data', data]);
        expect(add.code, `servers add: ${add.stdout}${add.stderr}\nthe sweep: ${sweep.out().stderr}`).toBe(2);
        expect(add.stderr).toMatch(
          /the embedded database at .* is in use by goodput sweep \(pid \d+, since .*\)\. The embedded database is one process's at a time: wait for it, run with --no-save, start `goodput serve` first/,
        );
        const list = await runGoodput(['runs', 'list', '--json', '--data', data]);
        expect(list.stderr, `the sweep: ${sweep.out().stderr}`).toBe('');
        expect(list.code).toBe(0);
        expect((JSON.parse(list.stdout) as Array<{ id: number; status: string }>).map((r) => [r.id, r.status])).toEqual([
          [2, 'running'],
          [1, 'complete'],
        ]);
        const show = await runGoodput(['runs', 'show', '1', '--data', data]);
        expect(show.code).toBe(0);
        expect(show.stdout).toMatch(/complete/);
        const out = join(tmp('busy-export'), 'run1.json');
        const exported = await runGoodput(['runs', 'export', '1', '--out', out, '--data', data], {}, 240_000);
        expect(exported.code, `runs export: ${exported.stderr}\nthe sweep: ${sweep.out().stderr}`).toBe(0);
        expect(sweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).levels.map((l) => l.concurrency)).toEqual([1, 2]);
      } finally {
        await sweep.stop('SIGINT');
        await slow.stop();
      }
    },
    patient(400_000),
  );
});
