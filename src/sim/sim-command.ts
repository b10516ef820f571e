/**
 * `goodput sim`: serve the simulator from the command line until SIGINT/SIGTERM.
 * Flags override the profile file; everything is validated before anything starts,
 * and a bad value prints `goodput sim: <field>: <problem>` with exit code 2.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import { loadSimProfile } from './load-sim-profile.js';
import { simProfileSchema, type SimProfile } from './profile-schema.js';
import { startSimulator, type SimProfileInput } from './server.js';
import { applyFlags, declareSimFlags, flagOfPath } from './sim-flags.js';
import { firstProblem } from './zod-issues.js';

/** Exit code of bad input (flags, profile file). */
const EXIT_USAGE = 2;
/** Exit code when the server cannot listen, or died on purpose (`--die-after`). */
const EXIT_FAILURE = 1;

const listenSchema = z.object({
  port: z.number().int().min(0).max(65535),
  host: z.string().min(1),
});

type Resolved = { ok: true; profile: SimProfile; host: string; port: number } | { ok: false; message: string };

/** Turns flags (and the profile file they name) into a validated profile and address. */
export async function resolveSimOptions(flags: Record<string, unknown>): Promise<Resolved> {
  let base: SimProfileInput = {};
  if (typeof flags['profile'] === 'string') {
    try {
      base = await loadSimProfile(flags['profile']);
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  }
  const merged = simProfileSchema.safeParse(applyFlags(base, flags));
  if (!merged.success) {
    const p = firstProblem(merged.error);
    const flag = flagOfPath(p.field);
    return { ok: false, message: `${p.field}${flag === undefined ? '' : ` (${flag})`}: ${p.problem}` };
  }
  const portText = String(flags['port'] ?? '8000');
  const listen = listenSchema.safeParse({
    port: portText.trim() === '' ? Number.NaN : Number(portText),
    host: flags['host'] ?? '127.0.0.1',
  });
  if (!listen.success) {
    const p = firstProblem(listen.error);
    return { ok: false, message: `${p.field}: ${p.problem}` };
  }
  return { ok: true, profile: merged.data, ...listen.data };
}

/** Resolves on SIGINT or SIGTERM; `dispose` removes the handlers. */
function onSignal(): { signal: Promise<NodeJS.Signals>; dispose(): void } {
  let on: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    on = (sig) => resolve(sig);
  });
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    signal,
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}

/** Adds the `sim` subcommand to a commander program. */
export function registerSimCommand(program: Command): void {
  const cmd = program.command('sim').description('serve an OpenAI-compatible simulated LLM with an explicit performance model and fault injection');
  declareSimFlags(cmd);
  cmd.action(async (flags: Record<string, unknown>) => {
    const resolved = await resolveSimOptions(flags);
    if (!resolved.ok) {
      process.stderr.write(`goodput sim: ${resolved.message}\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    const { profile, host, port } = resolved;
    let server;
    try {
      server = await startSimulator({ ...profile, host, port, ...(typeof flags['requestLog'] === 'string' ? { requestLog: flags['requestLog'] } : {}) });
    } catch (err) {
      const message = (err as Error).message;
      // A request log that cannot be written is bad input (a path), like a bad flag.
      const badLog = message.startsWith('cannot write the request log');
      // Several people on one host each start a simulator on the default port: the second one is told which flag moves it.
      const taken = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
      const why = badLog
        ? message
        : taken
          ? `port ${port} on ${host} is in use: pick another with --port (0 picks a free one)`
          : `cannot listen on ${host}:${port}: ${message}`;
      process.stderr.write(`goodput sim: ${why}\n`);
      process.exitCode = badLog || taken ? EXIT_USAGE : EXIT_FAILURE;
      return;
    }
    process.stdout.write(`goodput sim listening on ${server.url} (model ${profile.model})\n`);
    const signals = onSignal();
    const end = await Promise.race([signals.signal, server.stopped]);
    signals.dispose();
    if (end === 'died') {
      // Like a crashed engine process: gone, with a failure exit code.
      process.stderr.write(`goodput sim: died after ${server.stats().accepted} requests (dieAfterRequests)\n`);
      process.exitCode = EXIT_FAILURE;
      return;
    }
    await server.close();
  });
}
