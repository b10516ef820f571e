/**
 * The goodput CLI as a real process, from source (through tsx), for tests:
 * run a command to its end, or start one (serve, a long sweep) and wait for
 * a line of its output. Every wait is bounded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { patient } from './patience.js';

const MAIN = fileURLToPath(new URL('../cli/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Started {
  child: ChildProcess;
  /** Everything written so far. */
  out(): { stdout: string; stderr: string };
  /** Resolves with the first match of `re` on stdout or stderr; rejects after `timeoutMs` (times the test patience) or on exit. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Settles with the exit code once the process has exited and its output is read. */
  closed: Promise<number | null>;
  /** SIGTERM (or `signal`), then the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startGoodput(args: readonly string[], env: NodeJS.ProcessEnv = {}): Started {
  return startCommand(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } }, `goodput ${args.join(' ')}`);
}

/** Any command as a started process (e.g. `goodput` as a user's PATH finds it), with the same bounded waits. */
export function startCommand(file: string, argv: readonly string[], o: { cwd: string; env: NodeJS.ProcessEnv }, name = `${file} ${argv.join(' ')}`): Started {
  const child = spawn(file, argv, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (b: Buffer) => {
    stdout += b.toString();
    listeners.forEach((l) => l());
  });
  child.stderr?.on('data', (b: Buffer) => {
    stderr += b.toString();
    listeners.forEach((l) => l());
  });
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      listeners.forEach((l) => l());
      resolve(code);
    }),
  );
  return {
    child,
    closed,
    out: () => ({ stdout, stderr }),
    waitFor(re, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = re.exec(stdout) ?? re.exec(stderr);
          if (m) {
            done();
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${re}:\n${stdout}\n${stderr}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${re} from ${name}:\n${stdout}\n${stderr}`));
        }, patient(timeoutMs));
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), patient(20_000));
      const code = await closed;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Runs `goodput ARGS` to its end. @throws Error naming the command when it is still running after `timeoutMs` times the test patience (it is killed). */
export async function runGoodput(args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 90_000): Promise<Ran> {
  const p = startGoodput(args, env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    p.child.kill('SIGKILL');
  }, patient(timeoutMs));
  const code = await p.closed;
  clearTimeout(timer);
  if (timedOut) throw new Error(`goodput ${args.join(' ')} timed out after ${patient(timeoutMs)} ms:\n${p.out().stderr}`);
  return { code, ...p.out() };
}
