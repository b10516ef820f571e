/**
 * `goodput coldstart` as a user runs it: the simulator started as the server
 * command, its runs as a table and as JSON; a command a shell would have read,
 * and a run count past the limit, refused before anything is started.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runGoodput } from '../test-support/goodput-process.js';
import type { ColdStartReport } from './coldstart-command.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('goodput coldstart', () => {
  it('times the simulator started as the command, and writes the table and the JSON', async () => {
    const port = await freePort();
    const out = join(mkdtempSync(join(tmpdir(), 'goodput-coldstart-')), 'cold.json');
    const cmd = `'${process.execPath}' --import tsx '${MAIN}' sim --port ${port}`;
    const ran = await runGoodput(['coldstart', '--cmd', cmd, '--url', `http://127.0.0.1:${port}`, '--runs', '2', '--json', out], {}, 120_000);
    expect(ran.stderr).toContain('run 2 of 2: ready ');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('run  ready (ms)  first token (ms)');
    const report = JSON.parse(readFileSync(out, 'utf8')) as ColdStartReport;
    expect(report.command.slice(-3)).toEqual(['sim', '--port', String(port)]);
    expect(report.runs).toHaveLength(2);
    for (const r of report.runs) expect(r.firstTokenMs).toBeGreaterThan(r.readyMs as number);
    expect(report.firstTokenMs?.median).toBeGreaterThan(0);
  }, 180_000);

  it('refuses a shell operator and a run count past the limit, starting nothing', async () => {
    const pipe = await runGoodput(['coldstart', '--cmd', 'vllm serve m | tee log', '--url', 'http://127.0.0.1:9']);
    expect(pipe.code).toBe(2);
    expect(pipe.stderr).toContain(
      "--cmd: '|' is a shell operator, and the command runs without a shell: quote it to pass it as a word, or start the server from a script",
    );
    const many = await runGoodput(['coldstart', '--cmd', 'server', '--url', 'http://127.0.0.1:9', '--runs', '21']);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('--runs: 21 is above the limit of 20 cold starts one goodput coldstart times');
  }, 60_000);
});
