// --retry, --retry-max-wait-s and --rate-limit read into the spec with their documented defaults,
// and refused naming the flag and the rule: past the limits table, unreadable, or with --workers.
import { describe, expect, it } from 'vitest';
import { sweepKind } from './sweep-command.js';
import { specFromFlags } from './text-view.js';

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

describe('rate-limit flags', () => {
  it('retries 3 times within 60 s by default; --retry off turns them off; no pacing unless asked', () => {
    const spec = specFromFlags(flags, []);
    expect(spec.retry).toEqual({ retries: 3, maxWaitMs: 60_000 });
    expect(spec.rateLimit).toBeUndefined();
    expect(specFromFlags({ ...flags, retry: 'off', retryMaxWaitS: '5' }, []).retry).toEqual({ retries: 0, maxWaitMs: 5000 });
    expect(specFromFlags({ ...flags, rateLimit: 'rpm=60,tpm=90000' }, []).rateLimit).toEqual({ kind: 'budget', rpm: 60, tpm: 90000 });
    expect(specFromFlags({ ...flags, rateLimit: 'from-headers' }, []).rateLimit).toEqual({ kind: 'from-headers' });
  });

  it('refuses values past the limits table or that cannot be read, naming the flag', () => {
    expect(() => specFromFlags({ ...flags, retry: '11' }, [])).toThrow(
      /^--retry: 11 is above the limit of 10 retries of one request answered 429, 529 or 503 with Retry-After$/,
    );
    expect(() => specFromFlags({ ...flags, retryMaxWaitS: '601' }, [])).toThrow(
      /^--retry-max-wait-s: 601 is above the limit of 600 seconds one request may wait for retries in all/,
    );
    expect(() => specFromFlags({ ...flags, rateLimit: 'fast' }, [])).toThrow(
      /^--rate-limit: 'fast' is not rpm=N or tpm=M \(give rpm=N,tpm=M or from-headers\)$/,
    );
    expect(() => specFromFlags({ ...flags, rateLimit: 'rpm=0' }, [])).toThrow(/^--rate-limit: rpm must be positive$/);
  });

  it('refuses to pace a sweep split over --workers, before anything connects', async () => {
    const spec = { url: 'http://127.0.0.1:9', levels: [1], rateLimit: { kind: 'budget' as const, rpm: 60, tpm: null } };
    await expect(sweepKind(spec, { workers: { count: 2, databaseUrl: 'postgres://127.0.0.1:9/x', waitMs: 0 } })).rejects.toThrow(
      /^--rate-limit: cannot pace --workers: one process holds the budget \(run the sweep without --workers\)$/,
    );
  });
});
