/**
 * No measured run is lost to what fails after it: a quality server that dies
 * once the runs are measured, a result file that cannot be written, a step
 * that throws. The other files and the stored run are written all the same,
 * each failure is said, and the exit code is the documented one.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { sweepResultSchema } from '../core/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { startServer } from '../test-support/scripted-server.js';
import { useSimulators } from '../test-support/simulators.js';
import { writeMooncakeTrace } from '../test-support/trace-fixtures.js';
import { AfterMeasuring } from './after-measuring.js';
import { CliError, EXIT } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-late-'));
const sim = useSimulators({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
const common = ['--client-threads', '1', '--no-server-metrics'];
let n = 0;
/** A path the result file cannot be written to: a directory is there. */
const blocked = () => {
  const p = join(dir, `blocked-${n++}`);
  mkdirSync(p);
  writeFileSync(join(p, 'keep'), '');
  return p;
};
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').length;

describe('a failure after measuring', () => {
  it('run --repeats 3: a quality server that dies after the runs leaves the result written with every run, exit 7', async () => {
    const s = await sim();
    // Answers nothing: the connection is cut on every request, as a server that died would.
    const dead = await startServer((_req, res) => {
      res.socket?.destroy();
    });
    try {
      const contract = join(dir, 'c.yaml');
      writeFileSync(
        contract,
        stringify({
          version: 1,
          server: { url: s.url },
          model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
          workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, requestsPerLevel: 2, warmup: 0 },
          load: { levels: [1] },
          slo: { ttftMs: { p: 95, max: 2000 } },
          hardware: { label: 'SimGPU 80GB' },
        }),
      );
      const json = join(dir, 'repeats.json');
      const r = await cli(['run', contract, '--repeats', '3', '--quality-baseline', dead.url, '--json', json, '--no-save']);
      expect(r.code, r.stderr).toBe(EXIT.afterMeasuring);
      expect(r.stderr).toMatch(/goodput: no quality score \(the runs are kept without one, and a receipt refuses them\): baseline: /);
      expect(r.stderr).toContain(`wrote ${json}\n`);
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(result.quality).toBeUndefined();
      expect(result.repeats).toHaveLength(2);
      expect(result.run.repeat).toMatchObject({ index: 1, of: 3 });
      expect(r.stdout).toMatch(/Throughput|tok\/s/);
    } finally {
      await dead.close();
    }
  });

  it('run: the result is on disk while the quality baseline hangs, before any score is measured', async () => {
    const s = await sim();
    // Takes every request and answers none, until it is closed.
    const hanging = await startServer(() => {});
    const json = join(dir, 'hanging.json');
    const contract = join(dir, 'h.yaml');
    writeFileSync(
      contract,
      stringify({
        version: 1,
        server: { url: s.url },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, requestsPerLevel: 2, warmup: 0 },
        load: { levels: [1] },
        slo: { ttftMs: { p: 95, max: 2000 } },
        hardware: { label: 'SimGPU 80GB' },
      }),
    );
    const running = cli(['run', contract, '--quality-baseline', hanging.url, '--json', json, '--no-save']);
    try {
      // Once the baseline holds a request, the run is waiting on it: its result must already be written.
      const deadline = Date.now() + 15_000;
      while (hanging.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(hanging.requests.length).toBeGreaterThan(0);
      expect(existsSync(json)).toBe(true);
      const early = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(early.levels).toHaveLength(1);
      expect(early.quality).toBeUndefined();
    } finally {
      await hanging.close();
    }
    const r = await running;
    expect(r.code, r.stderr).toBe(EXIT.afterMeasuring);
    expect(r.stderr).toMatch(/no quality score \(the runs are kept without one/);
  });

  it('sweep: a result file that cannot be written leaves the records and the stored run whole, exit 7', async () => {
    const s = await sim();
    const data = join(dir, 'db');
    const raw = join(dir, 'sweep.jsonl');
    const r = await cli([
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
      blocked(),
      '--raw',
      raw,
      '--data',
      data,
      '--save',
      ...common,
    ]);
    expect(r.code, r.stderr).toBe(EXIT.afterMeasuring);
    expect(r.stderr).toMatch(/goodput: writing the result file failed after the measurement \(.*\); the rest was written/);
    expect(r.stderr).toContain(`wrote ${raw}\n`);
    expect(lines(raw)).toBe(2 + 2 + 2);
    expect(r.stderr).toMatch(/stored as run \d+ \(complete\)/);
    const shown = JSON.parse((await cli(['runs', 'show', '1', '--json', '--data', data])).stdout) as { status: string; levels: unknown[] };
    expect(shown).toMatchObject({ status: 'complete' });
    expect(shown.levels).toHaveLength(2);
  });

  it('replay and sessions: the same, through the same steps', async () => {
    const s = await sim();
    const trace = join(dir, 't.jsonl');
    writeMooncakeTrace(trace, 4, 40);
    const raw = join(dir, 'replay.jsonl');
    const replay = await cli(['replay', trace, '--url', s.url, '--json', blocked(), '--raw', raw, '--no-save', ...common]);
    expect(replay.code, replay.stderr).toBe(EXIT.afterMeasuring);
    expect(replay.stderr).toMatch(/writing the result file failed after the measurement/);
    expect(lines(raw)).toBe(4);
    const sessionsRaw = join(dir, 'sessions.jsonl');
    const sessions = await cli([
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
      blocked(),
      '--raw',
      sessionsRaw,
      '--no-save',
      ...common,
    ]);
    expect(sessions.code, sessions.stderr).toBe(EXIT.afterMeasuring);
    expect(lines(sessionsRaw)).toBe(4);
    // The per-turn lines are still shown under the table.
    expect(sessions.stdout).toMatch(/Sessions at .*: 2 of 2 completed every turn/);
  });

  it('capacity: a report that cannot be written still shows the capacity found, exit 7', async () => {
    const s = await sim();
    const contract = join(dir, 'cap.yaml');
    writeFileSync(
      contract,
      stringify({
        version: 1,
        server: { url: s.url },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, requestsPerLevel: 2, warmup: 0 },
        load: { levels: [1, 2] },
        slo: { ttftMs: { p: 95, max: 5000 } },
        hardware: { label: 'SimGPU 80GB' },
      }),
    );
    const r = await cli(['capacity', contract, '--json', blocked(), '--max-probes', '2']);
    expect(r.code, r.stderr).toBe(EXIT.afterMeasuring);
    expect(r.stderr).toMatch(/writing the result file failed after the measurement/);
    expect(r.stdout).toMatch(/Evidence:/);
  });

  it('every step runs after one fails; the first failure gives the code, a store failure its own', async () => {
    const log: string[] = [];
    const after = new AfterMeasuring({ write: (s: string) => log.push(s) } as unknown as NodeJS.WritableStream);
    const ran: string[] = [];
    await after.step('rendering the table', () => {
      throw new Error('a bug');
    });
    await after.step('storing the run', () => {
      ran.push('stored');
      throw new CliError(EXIT.notStored, 'level(s) 2 were not stored');
    });
    await after.step('signing', () => {
      ran.push('signed');
    });
    expect(ran).toEqual(['stored', 'signed']);
    expect(after.code(EXIT.ok)).toBe(EXIT.afterMeasuring);
    expect(log).toEqual(['goodput: rendering the table failed after the measurement (a bug); the rest was written\n', 'goodput: level(s) 2 were not stored\n']);
    const store = new AfterMeasuring({ write: () => true } as unknown as NodeJS.WritableStream);
    await store.step('storing the run', () => {
      throw new CliError(EXIT.notStored, 'x');
    });
    expect(store.code(EXIT.noValidLevel)).toBe(EXIT.notStored);
    const none = new AfterMeasuring({ write: () => true } as unknown as NodeJS.WritableStream);
    await none.step('rendering the table', () => 'ok');
    expect(none.code(EXIT.noValidLevel)).toBe(EXIT.noValidLevel);
    expect(existsSync(dir)).toBe(true);
  });
});
