// The provider flags read from the command line: each refusal names the flag and the rule; the key file's
// first line is the key; the recorded command line carries a secret header's value as [redacted].
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { CliError } from './exit-codes.js';
import { redactedCommand } from './parse-flags.js';
import { apiKeyFromFile, providerFromFlags } from './provider-flags.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-provider-flags-'));
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('provider flags', () => {
  it('reads headers, the extra body and the Azure pair', () => {
    expect(
      providerFromFlags({ endpoint: 'chat', header: ['X-Tenant: a'], extraBody: '{"priority":1}', azureDeployment: 'gpt-4o', apiVersion: '2024-10-21' }),
    ).toEqual({ headers: [{ name: 'X-Tenant', value: 'a' }], extraBody: { priority: 1 }, azure: { deployment: 'gpt-4o', apiVersion: '2024-10-21' } });
    expect(providerFromFlags({ endpoint: 'messages', apiVersion: '2023-06-01' })).toMatchObject({ anthropicVersion: '2023-06-01', azure: null });
  });

  it('refuses each bad value naming the flag', () => {
    expect(refusal(() => providerFromFlags({ endpoint: 'chat', header: ['Host: x'] }))).toBe(
      '--header: Host is set by goodput or by the connection itself, never by --header',
    );
    expect(refusal(() => providerFromFlags({ endpoint: 'chat', header: ['X-A: 1', 'x-a: 2'] }))).toBe('--header: x-a is given twice');
    expect(refusal(() => providerFromFlags({ endpoint: 'chat', header: Array(33).fill('X: 1') }))).toBe(
      '--header: headers 33 is above the limit of 32 extra headers sent with every request (--header)',
    );
    expect(refusal(() => providerFromFlags({ endpoint: 'chat', extraBody: '{priority' }))).toMatch(/^--extra-body: is not JSON \(/);
    expect(refusal(() => providerFromFlags({ endpoint: 'chat', extraBody: '{"model":"x"}' }))).toBe(
      '--extra-body: sets model, which goodput writes itself (the workload and the stream are what is measured)',
    );
    expect(refusal(() => providerFromFlags({ endpoint: 'chat', azureDeployment: 'd' }))).toBe(
      '--azure-deployment: needs --api-version (e.g. 2024-10-21): Azure refuses a request without one',
    );
    expect(refusal(() => providerFromFlags({ endpoint: 'responses', azureDeployment: 'd', apiVersion: 'v' }))).toBe(
      '--azure-deployment: an Azure deployment serves chat and completions here, not responses',
    );
    expect(refusal(() => providerFromFlags({ endpoint: 'chat', apiVersion: 'v' }))).toBe(
      '--api-version: is the api-version of --azure-deployment, or the anthropic-version of --endpoint messages',
    );
  });

  it('reads the key from the first line of a file and refuses an empty, oversized or missing one by its path', () => {
    const key = join(dir, 'key');
    writeFileSync(key, 'sk-abc123\nsecond line ignored\n');
    expect(apiKeyFromFile(key)).toBe('sk-abc123');
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(refusal(() => apiKeyFromFile(empty))).toBe(`--api-key-file: ${empty} holds no key on its first line`);
    const big = join(dir, 'big');
    writeFileSync(big, 'k'.repeat(16 * 1024 + 1));
    expect(refusal(() => apiKeyFromFile(big))).toBe(`--api-key-file: ${big}: size 16385 is above the limit of 16384 bytes in an API key file (--api-key-file)`);
    expect(refusal(() => apiKeyFromFile(join(dir, 'none')))).toBe(`--api-key-file: ${join(dir, 'none')} cannot be read (ENOENT)`);
  });

  it("records a secret header's value as [redacted] in the command line, a plain one as typed", () => {
    expect(redactedCommand(['goodput', 'sweep', '--header', 'X-Api-Key: sk-1', '--header=Authorization: Bearer t', '--header', 'X-Tenant: a'])).toBe(
      'goodput sweep --header "X-Api-Key: [redacted]" "--header=Authorization: [redacted]" --header "X-Tenant: a"',
    );
  });
});

describe('goodput sweep with the provider flags, in-process', () => {
  it('refuses a key given two ways and a secret header with --workers, nothing sent', async () => {
    const key = join(dir, 'key2');
    writeFileSync(key, 'sk-file\n');
    const two = await cli(['sweep', '--url', 'http://127.0.0.1:9', '--levels', '1', '--api-key-file', key, '--api-key', 'sk-flag', '--no-save']);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('--api-key-file: give the key one way: --api-key-file, --api-key-env or --api-key');
    const workers = await cli(['sweep', '--url', 'http://127.0.0.1:9', '--levels', '1', '--workers', '2', '--header', 'X-Api-Key: sk-1', '--no-save']);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toContain('--header: a secret-looking header is never handed to worker processes (their jobs are stored): run it without --workers');
    expect(workers.stderr).not.toContain('sk-1');
  });
});
