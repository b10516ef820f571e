/**
 * Cold starts of the simulator started as the command: spawn → ready → first
 * token in that order, the process group gone after every run, and a server
 * that dies before it is ready named with its exit and its last words.
 */
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { coldStart } from './cold-start.js';

const MAIN = fileURLToPath(new URL('../cli/main.ts', import.meta.url));

/** A free loopback port (closed again before the server takes it). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('coldStart', () => {
  it('times the simulator from spawn to ready to first token, and stops it after each run', async () => {
    const port = await freePort();
    const argv = [process.execPath, '--import', 'tsx', MAIN, 'sim', '--port', String(port)];
    const runs = await coldStart({ argv, target: { baseUrl: `http://127.0.0.1:${port}` }, runs: 2, waitMs: 60_000, stopMs: 5_000 });
    expect(runs).toHaveLength(2);
    for (const r of runs) {
      expect(r.failure).toBeNull();
      expect(r.readyBy).toBe('GET /health');
      expect(r.model).toBe('goodput-sim-1');
      expect(r.readyMs).toBeGreaterThan(0);
      expect(r.firstTokenMs).toBeGreaterThan(r.readyMs as number);
    }
    // The port is free again: the server of the last run is gone.
    await expect(
      new Promise((resolve, reject) => {
        const s = createServer()
          .once('error', reject)
          .listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
      }),
    ).resolves.toBe(true);
  }, 120_000);

  it('names a server that exits before it is ready, with its last words', async () => {
    const argv = [process.execPath, '-e', 'console.error("no model file"); process.exit(3)'];
    const [run] = await coldStart({ argv, target: { baseUrl: 'http://127.0.0.1:9' }, runs: 1, waitMs: 30_000, stopMs: 2_000 });
    expect(run).toMatchObject({
      readyMs: null,
      firstTokenMs: null,
      failure: 'the server exited (code 3) before it was ready; its stderr ended: no model file',
    });
  });

  it('names a command that cannot be started', async () => {
    const [run] = await coldStart({ argv: ['/nonexistent/server'], target: { baseUrl: 'http://127.0.0.1:9' }, runs: 1, waitMs: 30_000, stopMs: 2_000 });
    expect(run?.failure).toMatch(/^the server could not be started: spawn \/nonexistent\/server ENOENT/);
  });
});
