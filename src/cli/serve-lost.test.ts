/**
 * The `goodput serve` a sweep saves through dies mid-sweep: the sweep keeps
 * measuring, writes its files, names the levels not stored and the import
 * command; `goodput runs import` then stores the run whole, and refuses
 * records that do not reproduce the result's counts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { startGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '2']);
});
afterAll(async () => {
  await sim.stop();
});

describe('when the goodput serve a sweep saves through dies', () => {
  it(
    'the sweep measures on, names the levels not stored, and runs import stores them from its files',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'goodput-lost-'));
      const data = join(dir, 'db');
      const json = join(dir, 'result.json');
      const raw = join(dir, 'raw.jsonl');
      const serve = startGoodput(['serve', '--port', '0', '--data', data]);
      await serve.waitFor(/goodput serve: http:\/\/127\.0\.0\.1:\d+\//);
      const sweep = startGoodput([
        'sweep',
        '--url',
        sim.url,
        '--levels',
        '1,2,4',
        '--requests-per-level',
        '24',
        '--output-tokens',
        '48',
        '--prompt-tokens',
        '8',
        '--data',
        data,
        '--json',
        json,
        '--raw',
        raw,
      ]);
      await sweep.waitFor(/level c=1 stored in run 1/, 90_000);
      await serve.stop('SIGKILL');
      const code = await sweep.closed;
      const { stderr } = sweep.out();
      expect(code).toBe(4);
      expect(stderr).toMatch(/level c=4: 24 requests, 0 failed/);
      expect(stderr).toContain(`wrote ${json}, ${raw}\n`);
      expect(stderr).toMatch(
        /level\(s\) 2, 4 were not stored \(.*\); the measurement is whole in .*result\.json and .*raw\.jsonl; store it with: goodput runs import .*result\.json --raw .*raw\.jsonl --data /,
      );

      // Records that do not reproduce a level's counts are refused, naming the level and the field; nothing is stored.
      const lines = readFileSync(raw, 'utf8').trim().split('\n');
      const shortRaw = join(dir, 'short.jsonl');
      writeFileSync(shortRaw, lines.filter((l) => !(JSON.parse(l).concurrency === 2 && !JSON.parse(l).warmup && JSON.parse(l).seq === 3)).join('\n') + '\n');
      const refused = await cli(['runs', 'import', json, '--raw', shortRaw, '--data', data]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/short\.jsonl: level 2 holds 23 measured requests; the result's requests says 24/);

      // One forged record (1e9 tokens per chunk) once made import store it and every later reader abort; it is refused naming the line and field.
      const forgedRaw = join(dir, 'forged.jsonl');
      writeFileSync(
        forgedRaw,
        lines
          .map((l, i) => (i === 3 ? JSON.stringify({ ...JSON.parse(l), chunkTokens: (JSON.parse(l).chunkTokens as number[]).map(() => 1e9) }) : l))
          .join('\n') + '\n',
      );
      const forged = await cli(['runs', 'import', json, '--raw', forgedRaw, '--data', data]);
      expect(forged.code).toBe(2);
      expect(forged.stderr).toMatch(/forged\.jsonl:4: not a request record: chunkTokens\.0: must be at most 66561/);

      const imported = await cli(['runs', 'import', json, '--raw', raw, '--data', data]);
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      const id = /stored as run (\d+)/.exec(imported.stdout)?.[1];
      expect(id).toBeDefined();
      const shown = JSON.parse((await cli(['runs', 'show', String(id), '--json', '--data', data])).stdout);
      expect(shown.status).toBe('complete');
      expect(shown.levels.map((l: { concurrency: number }) => l.concurrency)).toEqual([1, 2, 4]);
      // Without a registered server name, the URL is said once.
      const text = await cli(['runs', 'show', String(id), '--data', data]);
      expect(text.stdout.split('\n')[0]?.split(sim.url)).toHaveLength(2);
      const back = await cli(['runs', 'export', String(id), '--raw', join(dir, 'back.jsonl'), '--out', join(dir, 'back.json'), '--data', data]);
      expect(back.code).toBe(0);
      expect(back.stderr).toBe(`wrote ${join(dir, 'back.json')}, ${join(dir, 'back.jsonl')}\n`);
      expect(readFileSync(join(dir, 'back.jsonl'), 'utf8').trim().split('\n')).toHaveLength(lines.length);
    },
    patient(180_000),
  );

  it('runs import refuses a result with no level and a file that is not a result, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'goodput-import-'));
    writeFileSync(join(dir, 'junk.json'), '{"schemaVersion":1}');
    writeFileSync(join(dir, 'raw.jsonl'), '');
    const r = await cli(['runs', 'import', join(dir, 'junk.json'), '--raw', join(dir, 'raw.jsonl'), '--data', join(dir, 'db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/junk\.json: not a goodput result: run: /);
    const noRaw = await cli(['runs', 'import', join(dir, 'junk.json'), '--data', join(dir, 'db')]);
    // Without --raw a result's embedded records would do, so the file is read first: what is wrong with it is named.
    expect(noRaw.code).toBe(2);
    expect(noRaw.stderr).toMatch(/junk\.json: not a goodput result: run: /);
  });
});
