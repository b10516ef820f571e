/**
 * `--api-key-env NAME` naming an unset or empty variable is a usage error
 * (exit 2) naming the flag and the variable, in every command that takes it.
 * The check comes before any request, so the server URL is never called.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { contract } from '../test-support/receipt-fixture.js';
import { registerCapacityCommand } from './capacity-command.js';
import { apiKeyFromEnv } from './parse-flags.js';
import { registerRunCommand } from './run-command.js';
import { registerServersCommand } from './servers-command.js';
import { registerSweepCommand } from './sweep-command.js';

const UNSET = 'GOODPUT_TEST_KEY_NEVER_SET';
const EMPTY = 'GOODPUT_TEST_KEY_EMPTY';
const dir = mkdtempSync(join(tmpdir(), 'goodput-keyenv-'));
const file = join(dir, 'goodput.yaml');
writeFileSync(file, stringify({ ...contract(), server: { url: 'http://127.0.0.1:9' } }));
afterEach(() => {
  delete process.env[UNSET];
  delete process.env[EMPTY];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('apiKeyFromEnv', () => {
  it('returns the named variable, or the fallback when none is named', () => {
    process.env[EMPTY] = 'sk-1';
    expect(apiKeyFromEnv(EMPTY, UNSET)).toBe('sk-1');
    expect(apiKeyFromEnv(undefined, EMPTY)).toBe('sk-1');
    expect(apiKeyFromEnv(undefined, UNSET)).toBeUndefined();
    expect(apiKeyFromEnv(undefined)).toBeUndefined();
  });
  it('refuses a named variable that is unset or empty, naming the flag and the variable', () => {
    expect(() => apiKeyFromEnv(UNSET, 'PATH')).toThrow(expect.objectContaining({ exitCode: 2, message: `--api-key-env: the variable ${UNSET} is not set` }));
    process.env[EMPTY] = '';
    expect(() => apiKeyFromEnv(EMPTY)).toThrow(expect.objectContaining({ exitCode: 2, message: `--api-key-env: the variable ${EMPTY} is empty` }));
  });
});

describe('--api-key-env naming an unset variable', () => {
  const program = () => {
    const p = new Command('goodput').exitOverride();
    for (const register of [registerRunCommand, registerCapacityCommand, registerSweepCommand, registerServersCommand]) register(p);
    for (const c of p.commands) c.exitOverride();
    return p;
  };
  const cases: Array<[string, string[]]> = [
    ['run', ['run', file]],
    ['capacity', ['capacity', file]],
    ['sweep', ['sweep', '--url', 'http://127.0.0.1:9', '--levels', '1']],
    ['servers add', ['servers', 'add', 'x', 'http://127.0.0.1:9']],
  ];
  for (const [what, args] of cases) {
    it(`${what} fails with exit 2 naming the flag and the variable`, async () => {
      await expect(program().parseAsync(['node', 'goodput', ...args, '--api-key-env', UNSET])).rejects.toMatchObject({
        exitCode: 2,
        message: `--api-key-env: the variable ${UNSET} is not set`,
      });
    });
  }
});
