/**
 * A run whose every level failed is not a success: sweep, run, replay and
 * sessions exit with the documented "no valid level" code, after writing the
 * result file, and say so on their last line. A run with one valid level exits 0.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { useSimulators } from '../test-support/simulators.js';
import { writeMooncakeTrace } from '../test-support/trace-fixtures.js';
import { EXIT, exitCodeOf, invalidLevelsLine } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-exit-'));
const sim = useSimulators({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
const failing = () => sim({ faults: { http500: 1 } });
const common = ['--client-threads', '1', '--no-save', '--no-server-metrics'];

function expectNoValidLevel(r: { code: number | null; stdout: string; stderr: string }, json: string): void {
  expect(r.code, r.stderr).toBe(EXIT.noValidLevel);
  expect(existsSync(json)).toBe(true);
  const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
  expect(result.levels.length).toBeGreaterThan(0);
  expect(result.levels.every((l) => l.invalid)).toBe(true);
  expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^No valid level: every level had failed requests .*exit code 5\.$/);
}

describe('exit codes', () => {
  it('sweep: every level failed → exit 5, result written', async () => {
    const s = await failing();
    const json = join(dir, 'sweep.json');
    const r = await runGoodput([
      'sweep',
      '--url',
      s.url,
      '--levels',
      '1,2',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--json',
      json,
      ...common,
    ]);
    expectNoValidLevel(r, json);
  });

  it('run: a contract whose every level failed → exit 5, result written', async () => {
    const s = await failing();
    const contract = join(dir, 'c.yaml');
    const base = readFileSync(join(import.meta.dirname, '../../examples/baseline.yaml'), 'utf8');
    writeFileSync(
      contract,
      base.replace('http://127.0.0.1:8000', s.url).replace('levels: [1, 2, 4]', 'levels: [1]').replace('requestsPerLevel: 16', 'requestsPerLevel: 2'),
    );
    const json = join(dir, 'run.json');
    const r = await runGoodput(['run', contract, '--json', json, '--no-save']);
    expectNoValidLevel(r, json);
  });

  it('replay: every speed failed → exit 5, result written', async () => {
    const s = await failing();
    const trace = join(dir, 't.jsonl');
    writeMooncakeTrace(trace, 4, 40);
    const json = join(dir, 'replay.json');
    const r = await runGoodput([
      'replay',
      trace,
      '--url',
      s.url,
      '--speed',
      '1,2',
      '--json',
      json,
      '--client-threads',
      '1',
      '--no-save',
      '--no-server-metrics',
    ]);
    expectNoValidLevel(r, json);
  });

  it('sessions: every level failed → exit 5, result written', async () => {
    const s = await failing();
    const json = join(dir, 'sessions.json');
    const r = await runGoodput([
      'sessions',
      '--url',
      s.url,
      '--sessions',
      '2',
      '--turns',
      '2..2',
      '--think-s',
      '0..0',
      '--user-tokens',
      '8..8',
      '--answer-tokens',
      '8..8',
      '--levels',
      '1',
      '--json',
      json,
      ...common,
    ]);
    expectNoValidLevel(r, json);
  });

  it('one valid level is enough for 0; the last line names the invalid ones', () => {
    const run = { status: 'complete' };
    const level = (invalid: boolean, c: number) => ({ invalid, concurrency: c });
    expect(exitCodeOf({ run, levels: [level(true, 1), level(false, 2)] })).toBe(EXIT.ok);
    expect(exitCodeOf({ run, levels: [level(true, 1)] })).toBe(EXIT.noValidLevel);
    expect(exitCodeOf({ run: { status: 'server-failed' }, levels: [level(true, 1)] })).toBe(EXIT.serverFailed);
    expect(exitCodeOf({ run: { status: 'stopped' }, levels: [] })).toBe(EXIT.stopped);
    // A stop no signal asked for is our side going away (the workers' database): its own code, not the user's 130.
    expect(exitCodeOf({ run: { status: 'stopped' }, levels: [level(false, 1)] }, false)).toBe(EXIT.clientStopped);
    expect(EXIT.clientStopped).toBe(6);
    expect(invalidLevelsLine([level(true, 1), level(false, 2)])).toBe('1 of 2 levels invalid (concurrency 1): their figures are not comparable.');
    expect(invalidLevelsLine([level(false, 2)])).toBeNull();
  });
});
