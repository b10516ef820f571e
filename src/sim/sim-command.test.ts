/** `goodput sim`: flags over the profile file, validation messages, and a real process started and stopped. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerSimCommand, spawnSimProcess } from './index.js';
import { resolveSimOptions } from './sim-command.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'goodput-sim-cmd-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Parses `goodput sim <args>` with commander, as the CLI would. */
async function flagsOf(args: string[]): Promise<Record<string, unknown>> {
  const program = new Command('goodput').exitOverride();
  let flags: Record<string, unknown> = {};
  registerSimCommand(program);
  const sim = program.commands[0] as Command;
  sim.exitOverride().action((f: Record<string, unknown>) => {
    flags = f;
  });
  await program.parseAsync(['node', 'goodput', 'sim', ...args]);
  return flags;
}

describe('resolveSimOptions', () => {
  it('lets flags override the profile file, field by field', async () => {
    const profile = join(dir, 'p.yaml');
    await writeFile(profile, 'decodeStepMs: 7\nprefixCaching: true\nfaults:\n  stall: 0.2\n');
    const r = await resolveSimOptions(
      await flagsOf(['--profile', profile, '--decode-step-ms', '3', '--fail-500', '0.1', '--no-prefix-caching', '--natural-max', '50', '--port', '0']),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.profile).toMatchObject({ decodeStepMs: 3, prefixCaching: false, faults: { stall: 0.2, http500: 0.1 }, naturalOutputTokens: { min: 20, max: 50 } });
    expect(r).toMatchObject({ host: '127.0.0.1', port: 0 });
    const plain = await resolveSimOptions(await flagsOf(['--profile', profile]));
    expect(plain.ok && plain.profile.prefixCaching).toBe(true);
    expect(plain.ok && plain.port).toBe(8000);
  });

  it('names the field (and its flag) of a bad value', async () => {
    const message = async (args: string[]) => {
      const r = await resolveSimOptions(await flagsOf(args));
      return r.ok ? '' : r.message;
    };
    expect(await message(['--fail-500', '2'])).toMatch(/^faults\.http500 \(--fail-500\): /);
    expect(await message(['--decode-step-ms', 'abc'])).toMatch(/^decodeStepMs \(--decode-step-ms\): .*NaN/);
    expect(await message(['--die-after', '-1'])).toMatch(/^faults\.dieAfterRequests \(--die-after\): /);
    expect(await message(['--port', '70000'])).toMatch(/^port: /);
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"maxBatch": 0}');
    expect(await message(['--profile', bad])).toMatch(new RegExp(`^${bad}: maxBatch: `));
  });
});

describe('goodput sim', () => {
  it('prints "goodput sim: <field>: <problem>" and sets exit code 2 without starting', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const program = new Command('goodput').exitOverride();
      registerSimCommand(program);
      await program.parseAsync(['node', 'goodput', 'sim', '--max-batch', '0']);
      expect(process.exitCode).toBe(2);
      expect(String(err.mock.calls[0]?.[0])).toMatch(/^goodput sim: maxBatch \(--max-batch\): .+\n$/);
      expect(out).not.toHaveBeenCalled();
    } finally {
      process.exitCode = undefined;
      err.mockRestore();
      out.mockRestore();
    }
  });

  it('a port in use is named with the flag that moves it: exit 2, nothing served', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const program = new Command('goodput').exitOverride();
      registerSimCommand(program);
      await program.parseAsync(['node', 'goodput', 'sim', '--port', String(port)]);
      expect(process.exitCode).toBe(2);
      expect(String(err.mock.calls[0]?.[0])).toBe(`goodput sim: port ${port} on 127.0.0.1 is in use: pick another with --port (0 picks a free one)\n`);
      expect(out).not.toHaveBeenCalled();
    } finally {
      process.exitCode = undefined;
      err.mockRestore();
      out.mockRestore();
      await new Promise((r) => taken.close(r));
    }
  });

  it('serves in its own process, announces itself, and stops cleanly on SIGINT', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sim/sim-main.ts', 'sim', '--port', '0', '--model', 'demo-model'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('no listening line within 15 s')), 15_000);
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.split('\n')[0] as string);
        }
      });
    });
    expect(line).toMatch(/^goodput sim listening on http:\/\/127\.0\.0\.1:\d+ \(model demo-model\)$/);
    const url = /(http:\/\/\S+)/.exec(line)?.[1] as string;
    expect(await (await fetch(`${url}/v1/models`)).json()).toMatchObject({ data: [{ id: 'demo-model' }] });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('exits with code 1 when --die-after kills it, like a crashed engine', async () => {
    const p = await spawnSimProcess(['--die-after', '1', '--decode-step-ms', '1', '--prefill-base-ms', '1']);
    const exited = new Promise<number | null>((resolve) => p.child.once('exit', (code) => resolve(code)));
    await expect(fetch(`${p.url}/v1/completions`, { method: 'POST', body: JSON.stringify({ model: 'goodput-sim-1', prompt: 'x' }) })).rejects.toThrow();
    expect(await exited).toBe(1);
  });

  it('spawnSimProcess starts it on a free port and stops it with SIGTERM', async () => {
    const p = await spawnSimProcess(['--decode-step-ms', '1', '--prefill-base-ms', '1']);
    try {
      const res = await fetch(`${p.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'goodput-sim-1', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
      });
      expect(((await res.json()) as { usage: { completion_tokens: number } }).usage.completion_tokens).toBe(3);
    } finally {
      await p.stop();
    }
    expect(p.child.exitCode).toBe(0);
  });
});
