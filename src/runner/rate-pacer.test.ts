// The sweep's pacer on an injected clock: a budget spaces sends 60/rpm seconds apart and by their
// estimated tokens; from-headers sends one request at a time until an answer states the limit, then paces to it.
import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../client/index.js';
import { rec } from '../test-support/records.js';
import { estimateTokens, ratePacer } from './rate-pacer.js';

const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'x'.repeat(30), maxTokens: 90, forceLength: false, thinking: false };

/** A pacer on a manual clock that its waits move to their instant: no test waits. */
function paced(pacing: Parameters<typeof ratePacer>[0]) {
  const clock = { ns: 0 };
  return ratePacer(
    pacing,
    () => (clock.ns += 1e6),
    async (_c, dueNs) => {
      clock.ns = Math.max(clock.ns, dueNs);
    },
  );
}

describe('the rate pacer', () => {
  it("estimates a request's tokens as its prompt's characters / 3 plus its max output tokens", () => {
    expect(estimateTokens(spec)).toBe(100);
    expect(estimateTokens({ ...spec, history: [{ role: 'user', content: 'y'.repeat(31) }] })).toBe(111);
  });

  it('spaces sends a second apart at 60 requests a minute', async () => {
    const p = paced({ kind: 'budget', rpm: 60, tpm: null });
    const signal = new AbortController().signal;
    const a = await p.before(spec, signal);
    const b = await p.before(spec, signal);
    const c = await p.before(spec, signal);
    expect([b - a, c - b]).toEqual([1e9, 1e9]);
  });

  it('spaces sends by their tokens against a token budget', async () => {
    const p = paced({ kind: 'budget', rpm: null, tpm: 6000 });
    const signal = new AbortController().signal;
    const a = await p.before(spec, signal);
    const b = await p.before(spec, signal);
    expect(b - a).toBe(1e9);
  });

  it('from-headers: one at a time until an answer states the limit, then paced to it', async () => {
    const p = paced({ kind: 'from-headers' });
    const signal = new AbortController().signal;
    await p.before(spec, signal);
    let second = false;
    const next = p.before(spec, signal).then((t) => ((second = true), t));
    await new Promise((r) => setTimeout(r, 5));
    expect(second).toBe(false);
    p.seen({ ...rec(), rateLimit: { limitRequests: 120 } });
    const a = await next;
    const b = await p.before(spec, signal);
    expect(b - a).toBe(0.5e9);
  });
});
