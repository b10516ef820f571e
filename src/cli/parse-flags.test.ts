import { describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { parseLevels, parseNumber, parseUrl, redactedCommand } from './parse-flags.js';
import { workersFromFlags } from './sweep-command.js';
import { specFromFlags } from './text-view.js';

describe('redactedCommand', () => {
  it('hides API keys and database passwords in both flag forms', () => {
    const cmd = redactedCommand([
      'goodput',
      'sweep',
      '--api-key',
      'sk-live-1',
      '--database-url',
      'postgres://bench:hunter2@db:5432/goodput',
      '--api-key=sk-live-2',
      '--database-url=postgres://u:pw2@db/x',
      '--database-url',
      'postgres://db/x?user=u&password=pw3',
      '--levels',
      '1,2',
    ]);
    expect(cmd).not.toMatch(/sk-live|hunter2|pw2|pw3/);
    expect(cmd).toBe(
      'goodput sweep --api-key *** --database-url postgres://***:***@db:5432/goodput --api-key=*** ' +
        '--database-url=postgres://***:***@db/x --database-url postgres://db/x?user=u&password=*** --levels 1,2',
    );
  });
});

describe('redactedCommand of --otlp-header', () => {
  it('hides every value in both flag forms, keeping its name; an argument that is no NAME=value is hidden whole', () => {
    const cmd = redactedCommand([
      'goodput',
      'sweep',
      '--otlp-header',
      'Authorization=Bearer hunter2',
      '--otlp-header=x-honeycomb-team=9f8e7d6c5b4a39281706f5e4d3c2',
      // Honeycomb's 22-character key under a name that says nothing: before, it was recorded as typed.
      '--otlp-header',
      'x-honeycomb-team=aB3dE5fG7hJ9kL1mN3pQ5r',
      '--otlp-header',
      'X-Scope-OrgID=team-a',
      '--otlp-header',
      'Authorization: Basic dXNlcjpwYXNzd29yZA==',
    ]);
    expect(cmd).not.toMatch(/hunter2|9f8e7d6c5b4a|aB3dE5fG7|dXNlcjpw/);
    expect(cmd).toBe(
      'goodput sweep --otlp-header Authorization=[redacted] --otlp-header=x-honeycomb-team=[redacted] --otlp-header x-honeycomb-team=[redacted] --otlp-header X-Scope-OrgID=[redacted] --otlp-header [redacted]',
    );
  });
});

describe('parseUrl', () => {
  it('refuses credentials in a server URL, naming the flag', () => {
    expect(() => parseUrl('--url', 'https://me:sk-1@host/v1')).toThrow(/^--url: must not contain a user name or password/);
    expect(() => parseUrl('--url', 'https://host/v1?api_key=sk-1')).toThrow(/^--url: must not carry a secret in its query \(api_key=…\)/);
    expect(parseUrl('--url', 'http://127.0.0.1:8000/')).toBe('http://127.0.0.1:8000');
  });
});

describe('limits on flags', () => {
  it('refuses a level, a level count or a number past its limit with exit 2, naming the limit', () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        expect(err).toBeInstanceOf(CliError);
        expect((err as CliError).exitCode).toBe(EXIT.usage);
        return (err as CliError).message;
      }
      throw new Error('not refused');
    };
    expect(refused(() => parseLevels('--levels', '0,-1,abc,4'))).toBe("--levels: '0', '-1', 'abc' are not positive integers (levels look like 1,2,4,8)");
    expect(refused(() => parseLevels('--levels', '1,2.5'))).toBe("--levels: '2.5' is not a positive integer (levels look like 1,2,4,8)");
    expect(refused(() => parseLevels('--levels', '100000'))).toBe('--levels: level 100000 is above the limit of 4096 concurrent streams in one level');
    expect(refused(() => parseLevels('--levels', Array.from({ length: 65 }, (_, i) => i + 1).join(',')))).toBe(
      '--levels: levels 65 is above the limit of 64 levels in one run',
    );
    expect(refused(() => parseNumber('--prompt-tokens', '300000000', { integer: true, min: 1, limit: 'promptTokens' }))).toBe(
      '--prompt-tokens: 300000000 is above the limit of 262144 prompt tokens per request',
    );
    expect(refused(() => parseNumber('--requests-per-level', '1e9', { integer: true, min: 1, limit: 'requestsPerLevel' }))).toBe(
      '--requests-per-level: 1000000000 is above the limit of 20000 measured requests per level',
    );
  });

  it('bounds client threads and workers from the same table, naming the limit', () => {
    const flags = {
      url: ['http://127.0.0.1:8000'],
      levels: '1',
      outputTokens: '256',
      promptTokens: '512',
      requestsPerLevel: 'auto',
      warmup: '1',
      thinking: 'off',
      endpoint: 'chat',
      engine: 'auto',
      forceLength: true,
      temperature: '0',
      seed: '42',
      clientBudgetMs: '10',
      timeoutS: '600',
      idleTimeoutS: '60',
      workersWait: '60',
      gpuSource: 'auto',
      serverMetrics: true,
      metricsIntervalMs: '1000',
    };
    const threads = (v: string) => specFromFlags({ ...flags, clientThreads: v }, []).clientThreads;
    expect(threads('auto')).toBe('auto');
    expect(threads('64')).toBe(64);
    expect(() => threads('65')).toThrow(/^--client-threads: 65 is above the limit of 64 client threads sending one level$/);
    expect(() => threads('0')).toThrow(/^--client-threads/);
    const workers = (v: string) => workersFromFlags({ ...flags, workers: v, databaseUrl: 'postgres://db/x' });
    expect(workers('256')?.count).toBe(256);
    expect(() => workers('257')).toThrow(/^--workers: 257 is above the limit of 256 goodput worker processes one sweep is split over$/);
    expect(() => workersFromFlags({ ...flags, workers: '2', workersWait: 'soon', databaseUrl: 'postgres://db/x' })).toThrow(/^--workers-wait/);
    expect(workersFromFlags({ ...flags, databaseUrl: 'postgres://db/x' })).toBeNull();
  });

  it('takes the idle limit from --idle-timeout-s, never longer than the whole limit', () => {
    const flags = {
      url: ['http://127.0.0.1:8000'],
      levels: '1',
      outputTokens: '256',
      promptTokens: '512',
      requestsPerLevel: 'auto',
      warmup: '1',
      thinking: 'off',
      endpoint: 'chat',
      engine: 'auto',
      forceLength: true,
      temperature: '0',
      seed: '42',
      clientBudgetMs: '10',
      clientThreads: 'auto',
      timeoutS: '600',
      idleTimeoutS: '60',
      workersWait: '60',
      gpuSource: 'auto',
      serverMetrics: true,
      metricsIntervalMs: '1000',
    };
    expect(specFromFlags(flags, []).timeouts).toEqual({ totalMs: 600_000, idleMs: 60_000, headersMs: 120_000 });
    expect(specFromFlags({ ...flags, idleTimeoutS: '2.5' }, []).timeouts?.idleMs).toBe(2500);
    expect(specFromFlags({ ...flags, idleTimeoutS: '900' }, []).timeouts?.idleMs).toBe(600_000);
    expect(() => specFromFlags({ ...flags, idleTimeoutS: '0' }, [])).toThrow(/^--idle-timeout-s/);
  });

  it('accepts values at the limit', () => {
    expect(parseLevels('--levels', `1,${LIMITS.concurrency.max}`)).toEqual([1, 4096]);
    expect(parseNumber('--output-tokens', String(LIMITS.outputTokens.max), { integer: true, limit: 'outputTokens' })).toBe(32_768);
  });
});
