/**
 * A contract's `provider` section: read as the flags are, in the hash when
 * present and absent from it otherwise (an older contract hashes as before),
 * refused for embeddings and rerank. `goodput run` of a provider contract
 * against a simulator allowing 120 requests/min paces as declared (no 429);
 * a rerun's policy is the contract's, else what its result recorded.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from '../core/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { contractHash } from './contract-hash.js';
import { validateContract } from './load-contract.js';
import { declaredPolicy, recordedPolicy } from './provider-policy.js';
import { runContract } from './run-contract.js';

const sims = useSimulators({ prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 0.5, decodeMsPerExtraSeq: 0 });

const contract = (over: Record<string, unknown> = {}, url = 'http://127.0.0.1:9') =>
  validateContract(
    {
      version: 1,
      server: { url, endpoint: 'chat' },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, requestsPerLevel: 6, warmup: 1 },
      load: { levels: [1] },
      slo: { ttftMs: { p: 95, max: 5000 } },
      hardware: { label: 'SimGPU 80GB' },
      ...over,
    },
    'test contract',
    process.cwd(),
  );

const problem = (over: Record<string, unknown>) => {
  try {
    contract(over);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe("a contract's provider section", () => {
  it('is read as the flags are, and the resolved form reads back to the same contract and hash', () => {
    const c = contract({ provider: { rateLimit: 'rpm=60,tpm=90000', retries: 1, maxWaitS: 5 } });
    expect(c.provider).toEqual({ rateLimit: { kind: 'budget', rpm: 60, tpm: 90000 }, retries: 1, maxWaitS: 5 });
    const again = contract({ provider: c.provider });
    expect(contractHash(again)).toBe(contractHash(c));
    expect(declaredPolicy(c.provider)).toEqual({ retry: { retries: 1, maxWaitMs: 5000 }, rateLimit: { kind: 'budget', rpm: 60, tpm: 90000 } });
    expect(contract({ provider: { rateLimit: 'from-headers' } }).provider?.rateLimit).toEqual({ kind: 'from-headers' });
  });

  it('is in the hash when present; a contract without it has no such key and hashes as before', () => {
    const plain = contract();
    expect(plain).not.toHaveProperty('provider');
    expect(contractHash(contract({ provider: { retries: 3 } }))).not.toBe(contractHash(plain));
    expect(contractHash(contract({ provider: { rateLimit: 'rpm=60' } }))).not.toBe(contractHash(contract({ provider: { rateLimit: 'rpm=61' } })));
    expect(declaredPolicy(undefined)).toEqual({ retry: DEFAULT_RETRY, rateLimit: null });
  });

  it('refuses a bad value naming the field, and any provider section on embeddings or rerank', () => {
    expect(problem({ provider: { rateLimit: 'rpm=fast' } })).toContain("provider.rateLimit: rateLimit 'rpm=fast' is not rpm=N or tpm=M");
    expect(problem({ provider: { retries: 11 } })).toContain('provider.retries: retries 11 is above the limit of 10');
    expect(problem({ provider: { maxWaitS: 601 } })).toContain('provider.maxWaitS: maxWaitS 601 is above the limit of 600');
    expect(problem({ provider: { pace: 1 } })).toContain('provider');
    expect(
      problem({
        server: { url: 'http://127.0.0.1:9', endpoint: 'embeddings' },
        workload: { prompts: { kind: 'synthetic', tokens: 16 }, batchSize: 4, requestsPerLevel: 6 },
        provider: { rateLimit: 'rpm=60', retries: 1 },
      }),
    ).toContain('provider.rateLimit: applies to chat and completions: embeddings requests are retried, never paced (docs/rate-limits.md)');
  });

  it("a rerun's policy: the contract's when declared, else the result's recorded one, else none (measured before retries)", () => {
    const declared = contract({ provider: { rateLimit: 'rpm=60' } });
    expect(recordedPolicy(declared, { retry: { retries: 0, maxWaitMs: 0 } })).toEqual({
      retry: DEFAULT_RETRY,
      rateLimit: { kind: 'budget', rpm: 60, tpm: null },
    });
    const recorded = { retry: { retries: 2, maxWaitMs: 9000 }, rateLimit: { kind: 'from-headers' as const } };
    expect(recordedPolicy(contract(), recorded)).toEqual({ retry: recorded.retry, rateLimit: recorded.rateLimit });
    expect(recordedPolicy(contract(), {})).toEqual({ retry: { retries: 0, maxWaitMs: 0 }, rateLimit: null });
  });
});

describe('goodput run of a provider contract', () => {
  it('paces to the declared rate limit (no 429), records the policy, and a rerun runs under the policy the result recorded', async () => {
    // Allows 120 requests a minute, holding 4: 7 requests sent back to back would run past it.
    const sim = await sims({ rateLimit: { rpm: 120, tpm: null } });
    const paced = await runContract(contract({ provider: { rateLimit: 'rpm=120', retries: 0 } }, sim.url), { command: 'test' });
    expect(paced.contract?.provider).toEqual({ rateLimit: { kind: 'budget', rpm: 120, tpm: null }, retries: 0 });
    expect(paced.run.rateLimit).toEqual({ kind: 'budget', rpm: 120, tpm: null });
    expect(paced.run.retry).toEqual({ retries: 0, maxWaitMs: DEFAULT_RETRY.maxWaitMs });
    expect(paced.levels[0]?.failed).toBe(0);
    expect(paced.levels[0]?.rateLimit?.answered429 ?? 0).toBe(0);

    // A result whose contract declares none is redone as recorded: here, paced, though its contract says nothing.
    const plain = contract({}, sim.url);
    const policy = recordedPolicy(plain, { retry: { retries: 0, maxWaitMs: 0 }, rateLimit: { kind: 'budget', rpm: 120, tpm: null } });
    const redone = await runContract(plain, { command: 'test', policy });
    expect(redone.run.rateLimit).toEqual({ kind: 'budget', rpm: 120, tpm: null });
    expect(redone.run.retry).toEqual({ retries: 0, maxWaitMs: 0 });
    expect(redone.levels[0]?.failed).toBe(0);
    expect(redone.contract).not.toHaveProperty('provider');
  }, 30_000);
});
