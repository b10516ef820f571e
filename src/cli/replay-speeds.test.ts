/**
 * `replay --speed 1,2,4` keeps its speeds apart: three rows under a Speed
 * column, each speed its own x on the page's charts, and no speed served from
 * the prefix cache an earlier speed warmed (each level has its own salt), while
 * the trace's own shared prefixes stay shared inside a level.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { throughputChart } from '../web/index.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-speeds-'));

beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    '2',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '1',
    '--decode-ms-per-extra-seq',
    '0',
    '--max-batch',
    '1024',
  ]);
});
afterAll(async () => {
  await sim?.stop();
});

describe('replay at several speeds', () => {
  it(
    'three speeds: three rows under Speed, charts on the speeds, cached prompt tokens alike at every speed',
    async () => {
      const trace = join(dir, 'mooncake.jsonl');
      // Evenly spaced (200 ms, 50 ms at 4×: every request done before the next), four shared prefixes:
      // whether a prefix is cached depends only on the trace, never on timing.
      const traced = Array.from({ length: 16 }, (_, i) => ({
        timestamp: i * 200,
        input_length: 2 * 512 + 40,
        output_length: 8,
        hash_ids: [1000 + (i % 4), 2000 + (i % 4), 9000 + i],
      }));
      writeFileSync(trace, traced.map((x) => JSON.stringify(x)).join('\n') + '\n');
      const json = join(dir, 'speeds.json');
      const data = join(dir, 'db');
      const r = await runGoodput(
        ['replay', trace, '--url', sim.url, '--speed', '1,2,4', '--json', json, '--save', '--data', data, '--no-server-metrics', '--client-budget-ms', '1000'],
        {},
        120_000,
      );
      expect(r.code, r.stderr).toBe(0);
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(result.levels.map((l) => l.load?.level)).toEqual([1, 2, 4]);
      const lines = r.stdout.split('\n');
      const header = lines.find((l) => /^\s*Speed\s+Peak in flight\s+Throughput tok\/s/.test(l));
      expect(header, r.stdout).toBeDefined();
      const rows = lines.slice(lines.indexOf(header as string) + 1, lines.indexOf(header as string) + 4);
      expect(rows.map((l) => l.trim().split(/\s+/)[0])).toEqual(['1×', '2×', '4×']);
      const cached = result.levels.map((l) => l.cachedPromptTokens?.mean ?? 0);
      expect(cached[0]).toBeGreaterThan(0);
      for (const c of cached.slice(1)) expect(Math.abs(c - (cached[0] as number)) / (cached[0] as number)).toBeLessThanOrEqual(0.05);
      const table = throughputChart.table([{ label: 'run', role: 'single', levels: result.levels }]);
      expect(table.headers[0]).toBe('Speed');
      expect(table.rows.map((x) => x[0])).toEqual(['1×', '2×', '4×']);
      // The history row (a loaded machine cannot make a level client-bound: the budget is wide): the peak on the speed axis, and the trace's own lengths rather than the sweep default.
      const list = await runGoodput(['runs', 'list', '--data', data]);
      expect(list.stdout, list.stdout).toMatch(/@ [124]×/);
      expect(list.stdout).not.toMatch(/@ c=/);
      const show = await runGoodput(['runs', 'show', '1', '--data', data]);
      expect(show.stdout.split('\n')[0]).toContain('· trace lengths ·');
      expect(show.stdout).toMatch(/^\s*Speed\s+Peak in flight/m);
      expect(throughputChart.summary([{ label: 'run', role: 'single', levels: result.levels }])).toMatch(/at speed 1× and (peaks|is) .* at speed \d×/);
    },
    patient(240_000),
  );
});
