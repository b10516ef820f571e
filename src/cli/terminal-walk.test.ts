/**
 * Hostile strings (OSC 52 clipboard writes, clear-screen, a C1 CSI, bidi
 * overrides) in a result file, in a stored run and in its row never reach the
 * terminal raw: every command that prints them, run in-process through the one
 * output guard main.ts installs, prints them sanitised.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { openStore } from '../store/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { sweepFixture } from '../test-support/sweep-fixture.js';
import { patient } from '../test-support/patience.js';

const EVIL = '\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u009b31m\u202egnp.exe\u2066';
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u001b\u0007\u009b\u202e\u2066]/;
const dir = mkdtempSync(join(tmpdir(), 'goodput-walk-'));
const data = join(dir, 'data');
const file = join(dir, 'hostile.json');
const other = join(dir, 'other.json');
const raw = join(dir, 'hostile.jsonl');

beforeAll(async () => {
  const fx = await sweepFixture();
  const r = fx.result;
  const hostile: SweepResult = {
    ...r,
    run: { ...r.run, model: `tiny${EVIL}`, engine: { name: `vllm${EVIL}`, version: `0.9${EVIL}` }, gpuLabel: `H100${EVIL}`, command: `goodput sweep ${EVIL}` },
    warnings: [...r.warnings, { code: 'hostile', message: `warned${EVIL}` }],
    levels: r.levels.map((l) => ({ ...l, failureExamples: [`failed${EVIL}`] })),
    cards: { ...r.cards, platform: { ...r.cards.platform, gpu: `H100${EVIL}` } },
  };
  writeFileSync(file, JSON.stringify(hostile));
  writeFileSync(other, JSON.stringify({ ...hostile, run: { ...hostile.run, gpuLabel: `A100${EVIL}` } }));
  writeFileSync(raw, fx.levels.flatMap((l) => l.records.map((rec) => JSON.stringify(rec))).join('\n') + '\n');
  const imported = await cli(['runs', 'import', file, '--raw', raw, '--data', data]);
  expect(imported.code, imported.stderr).toBe(0);
  // The run's row, written as another user of the store could.
  const store = await openStore({ kind: 'embedded', dir: data }, { kind: 'cli', command: 'test' });
  await store.driver.query('UPDATE runs SET model = $1, server_name = $2', [`tiny${EVIL}`, `box${EVIL}`]);
  await store.close();
}, patient(120_000));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const commands: string[][] = [
  ['cards', file],
  ['compare', file, other],
  ['compare', '1', other, '--data', data],
  ['report', file, '--format', 'md'],
  ['report', '1', other, '--format', 'md', '--data', data],
  ['export', file, '--format', 'markdown'],
  ['export', file, '--format', 'vllm', '--raw', raw],
  ['runs', 'list', '--data', data],
  ['runs', 'show', '1', '--data', data],
  ['runs', 'export', '1', '--data', data],
];

describe('every command printing hostile strings', () => {
  it.each(commands.map((c) => [c.join(' ').replaceAll(dir, '…'), c] as const))(
    'goodput %s prints them sanitised',
    async (_name, args) => {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(0);
      const all = r.stdout + r.stderr;
      expect(all.match(RAW), 'a raw control, escape or bidi character').toBeNull();
      expect(all).toMatch(/tiny|vllm|H100|A100|box/);
    },
    patient(60_000),
  );
});
