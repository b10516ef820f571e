/**
 * Runs the simulator in its own process (so it never shares an event loop with the
 * client being measured) and resolves once it listens. Under Vitest/tsx the entry is
 * TypeScript and is loaded through tsx; built, it is plain JavaScript.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A simulator running in a child process. */
export interface SimProcess {
  /** Base URL, `http://HOST:PORT`. */
  url: string;
  child: ChildProcess;
  /** Sends SIGTERM and resolves when the process has exited. */
  stop(): Promise<void>;
}

const fromSource = import.meta.url.endsWith('.ts');
const entry = fileURLToPath(new URL(fromSource ? './sim-main.ts' : './sim-main.js', import.meta.url));
const nodeArgs = fromSource ? ['--import', 'tsx', entry] : [entry];
/** tsx is resolved from the working directory, so from source the child runs in the package root. */
const cwd = fromSource ? fileURLToPath(new URL('../../', import.meta.url)) : undefined;

/**
 * Spawns `goodput sim` with `flags` (on a free port unless `--port` is given).
 * @param timeoutMs how long to wait for the listening line, ms. Default 15000.
 * @throws Error with the child's stderr when it exits or does not listen in time.
 */
export function spawnSimProcess(flags: readonly string[] = [], timeoutMs = 15_000): Promise<SimProcess> {
  const port = flags.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(process.execPath, [...nodeArgs, 'sim', ...port, ...flags], { stdio: ['ignore', 'pipe', 'pipe'], cwd });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`simulator ${why}${err === '' ? '' : `: ${err.trim()}`}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    const onExit = (code: number | null): void => fail(`exited with code ${String(code)}`);
    child.once('exit', onExit);
    child.stderr?.on('data', (b: Buffer) => {
      err += b.toString();
    });
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m === null) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve({
        url: m[1] as string,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
