// `goodput sim --dialect` and `--overload-limit`: choices, profile fields, and messages naming the bad value.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSimCommand, SIM_DIALECT_KINDS } from './index.js';
import { resolveSimOptions } from './sim-command.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'goodput-sim-dialect-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function flagsOf(args: string[]): Promise<Record<string, unknown>> {
  const program = new Command('goodput').exitOverride();
  let flags: Record<string, unknown> = {};
  registerSimCommand(program);
  const sim = program.commands[0] as Command;
  sim
    .exitOverride()
    .configureOutput({ writeErr: () => undefined })
    .action((f: Record<string, unknown>) => {
      flags = f;
    });
  await program.parseAsync(['node', 'goodput', 'sim', ...args]);
  return flags;
}

describe('goodput sim --dialect', () => {
  it('takes every engine and puts it in the profile', async () => {
    for (const dialect of SIM_DIALECT_KINDS) {
      const r = await resolveSimOptions(await flagsOf(['--dialect', dialect, '--overload-limit', '3']));
      expect(r.ok && r.profile.dialect).toBe(dialect);
      expect(r.ok && r.profile.overloadLimit).toBe(3);
    }
  });

  it('refuses an unknown engine, listing the choices', async () => {
    const err = await flagsOf(['--dialect', 'vllm2']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommanderError);
    expect((err as CommanderError).message).toMatch(
      /argument 'vllm2' is invalid\. Allowed choices are goodput, vllm, sglang, tgi, llamacpp, ollama, trtllm, lmdeploy, openai/,
    );
  });

  it('names the field of a bad dialect in a profile file, and of a bad --overload-limit', async () => {
    const file = join(dir, 'p.yaml');
    await writeFile(file, 'dialect: vllm2\n');
    const fromFile = await resolveSimOptions(await flagsOf(['--profile', file]));
    expect(fromFile.ok ? '' : fromFile.message).toMatch(new RegExp(`^${file}: dialect: `));
    const limit = await resolveSimOptions(await flagsOf(['--overload-limit', '0']));
    expect(limit.ok ? '' : limit.message).toMatch(/^overloadLimit \(--overload-limit\): /);
  });
});
