// Acceptance, against the simulator playing a provider that allows 60 requests a minute (a bucket of two,
// then one a second): paced with --rate-limit rpm=60 the run meets no 429; unpaced, the 429s are retried
// after Retry-After, each retried request's TTFT counts from its first attempt, the retries are in the
// table and the JSON, and the level says the provider's limit set its pace. Real seconds pass (the limit
// is the provider's, in wall time), so this is a timing test: a few seconds each.
import { describe, expect, it } from 'vitest';
import { ttftMs, type RequestRecord } from '../core/index.js';
import { levelFromRecords, runSweep } from '../runner/index.js';
import { useSimulators } from '../test-support/simulators.js';
import { renderResult } from './render-table.js';

const sim = useSimulators({ prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, rateLimit: { rpm: 60 } });
const base = { outputTokens: 16, promptTokens: 16, requestsPerLevel: 4, warmup: 0, serverMetrics: false };
const LIMITED = "limited by the provider's rate limit (60 requests/min)";

function collect() {
  const records: RequestRecord[] = [];
  return { records, onEvent: (e: { kind: string; records?: readonly RequestRecord[] }) => void (e.kind === 'level-end' && records.push(...(e.records ?? []))) };
}

describe('a provider allowing 60 requests a minute', () => {
  it('--rate-limit rpm=60 paces the sends under the limit: no 429, and the level says the limit set its pace', async () => {
    const s = await sim();
    const c = collect();
    const result = await runSweep({ ...base, url: s.url, levels: [2], rateLimit: { kind: 'budget', rpm: 60, tpm: null } }, { onEvent: c.onEvent });
    const level = result.levels[0];
    expect(s.stats().rateLimited).toBe(0);
    expect(level).toMatchObject({ failed: 0, rateLimit: { answered429: 0, limited: true, reason: LIMITED, pace: { rpm: 60, source: 'flag' } } });
    expect(level?.retries).toBeUndefined();
    expect(level?.rateLimit?.headers).toMatchObject({ limitRequests: 60 });
    // Each request was meant to leave a second after the one before it (60 a minute).
    const meant = c.records.map((r) => r.targetSendNs).sort((a, b) => a - b);
    for (let i = 1; i < meant.length; i++) expect((meant[i] as number) - (meant[i - 1] as number)).toBeGreaterThanOrEqual(1e9 - 1);
    // No capacity is read from it (on a loaded machine it may be excluded as client-bound first).
    expect(result.cards.engine.peakThroughputTokS).toBeNull();
    expect(result.run.rateLimit).toEqual({ kind: 'budget', rpm: 60, tpm: null });
    // What a receipt's check recomputes from the records is what the run stated.
    expect(levelFromRecords(result, level as NonNullable<typeof level>, c.records)).toEqual(level);
  });

  it('unpaced, the 429s are retried after Retry-After, counted from the first attempt, shown, and the level is marked', async () => {
    const s = await sim();
    const c = collect();
    const result = await runSweep({ ...base, url: s.url, levels: [4] }, { onEvent: c.onEvent });
    const level = result.levels[0];
    expect(s.stats().rateLimited).toBeGreaterThan(0);
    expect(level).toMatchObject({ failed: 0, succeeded: 4, rateLimit: { limited: true, reason: LIMITED, pace: null } });
    expect(level?.rateLimit?.answered429).toBe(s.stats().rateLimited);
    expect(level?.retries?.attempts).toBe(s.stats().rateLimited);
    const retried = c.records.filter((r) => r.attempts !== undefined);
    expect(retried.length).toBe(level?.retries?.requests);
    for (const r of retried) {
      const waited = (r.attempts ?? []).reduce((a, x) => a + x.waitMs, 0);
      expect(r.sendNs).toBe(r.attempts?.[0]?.sendNs);
      expect(ttftMs(r)).toBeGreaterThan(waited);
    }
    const text = renderResult(result, false);
    expect(text).toContain('Retries');
    expect(text).toContain(`${level?.retries?.attempts} (${level?.retries?.requests} request`);
    expect(text).toContain(LIMITED);
    expect(JSON.parse(JSON.stringify(result)).levels[0].retries).toEqual(level?.retries);
    expect(levelFromRecords(result, level as NonNullable<typeof level>, c.records)).toEqual(level);
  });

  it('--rate-limit from-headers paces to the limit the answers state: no 429', async () => {
    const s = await sim();
    const result = await runSweep({ ...base, url: s.url, levels: [2], rateLimit: { kind: 'from-headers' } });
    expect(s.stats().rateLimited).toBe(0);
    expect(result.levels[0]).toMatchObject({ failed: 0, rateLimit: { answered429: 0, limited: true, reason: LIMITED, pace: { rpm: 60, source: 'headers' } } });
  });
});
