/**
 * Starts `goodput sim` in its own process, so the simulator never shares our
 * event loop, and returns its URL once it listens. Used by the demo and the benchmark.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Built: dist/cli/main.js. Under Vitest this module runs from src/, where the CLI is TypeScript.
const built = fileURLToPath(new URL('./main.js', import.meta.url));
const CLI_ARGS = existsSync(built) ? [built] : ['--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))];

export interface SpawnedSim { url: string; child: ChildProcess; stop(): Promise<void> }

/** Spawns the simulator with extra flags on a free port; rejects with its stderr if it does not start within `timeoutMs`. */
export function spawnSim(flags: readonly string[], timeoutMs = 15_000): Promise<SpawnedSim> {
  const child = spawn(process.execPath, [...CLI_ARGS, 'sim', '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`simulator ${why}${err ? `: ${err.trim()}` : ''}`));
    };
    child.stderr?.on('data', (b: Buffer) => { err += b.toString(); });
    child.on('exit', (code) => fail(`exited with code ${code}`));
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        url: m[1] as string,
        child,
        stop: () => new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    });
  });
}
