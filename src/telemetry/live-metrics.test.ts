/** The run's live exposition and the endpoint that serves it: counters, gauges, histograms; GET /metrics only; closed when asked. */
import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../core/index.js';
import { rec } from '../test-support/records.js';
import { LiveMetrics } from './live-metrics.js';
import { serveMetrics } from './metrics-server.js';

const value = (text: string, name: string, labels: Record<string, string> = {}) =>
  parsePrometheusText(text)
    .byName.get(name)
    ?.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe('live metrics', () => {
  it('counts records by outcome (warm-ups apart), tokens, the level left, and TTFT/TPOT histograms', () => {
    const m = new LiveMetrics();
    m.levelStart(4, 10);
    m.record(rec({ warmup: true, chunksMs: [5], endMs: 6, outputTokens: 1 }));
    m.record(rec({ sendMs: 0, chunksMs: [30, 40, 50], endMs: 50, outputTokens: 3, promptTokens: 5 }));
    m.record(rec({ outcome: { kind: 'timeout', phase: 'stream', message: 'x' } }));
    // Given up on purpose: counted by its outcome, neither failed nor in the tokens or histograms.
    m.record(rec({ chunksMs: [5, 6], endMs: 6, outcome: { kind: 'cancelled', after: 'tokens', phase: 'stream' } }));
    const text = m.text();
    expect(parsePrometheusText(text).badLines).toEqual([]);
    expect(value(text, 'goodput_requests_completed_total', { outcome: 'ok', warmup: 'false' })).toBe(1);
    expect(value(text, 'goodput_requests_completed_total', { outcome: 'ok', warmup: 'true' })).toBe(1);
    expect(value(text, 'goodput_requests_completed_total', { outcome: 'timeout', warmup: 'false' })).toBe(1);
    expect(value(text, 'goodput_requests_completed_total', { outcome: 'cancelled', warmup: 'false' })).toBe(1);
    expect(value(text, 'goodput_requests_failed_total')).toBe(1);
    expect(value(text, 'goodput_output_tokens_total')).toBe(3);
    expect(value(text, 'goodput_prompt_tokens_total')).toBe(5);
    expect(value(text, 'goodput_level_concurrency')).toBe(4);
    expect(value(text, 'goodput_level_requests_left')).toBe(7);
    // TTFT 30 ms: in the 0.05 s bucket, not the 0.025 one; TPOT 10 ms: in the 0.01 s bucket.
    expect(value(text, 'goodput_ttft_seconds_bucket', { le: '0.025' })).toBe(0);
    expect(value(text, 'goodput_ttft_seconds_bucket', { le: '0.05' })).toBe(1);
    expect(value(text, 'goodput_ttft_seconds_bucket', { le: '+Inf' })).toBe(1);
    expect(value(text, 'goodput_ttft_seconds_sum')).toBeCloseTo(0.03, 9);
    expect(value(text, 'goodput_tpot_seconds_bucket', { le: '0.01' })).toBe(1);
    expect(value(text, 'goodput_tpot_seconds_count')).toBe(1);
    m.levelEnd();
    expect(value(m.text(), 'goodput_levels_completed_total')).toBe(1);
  });
});

describe('the live in-flight gauge', () => {
  it("counts the level's requests open at its sends from the completed records, as the level's own figure does, and starts over each level", () => {
    const m = new LiveMetrics();
    m.levelStart(2, 6);
    // Only the level's first two sends back: nothing past the ramp to count yet.
    m.record(rec({ sendMs: 0, chunksMs: [5], endMs: 10 }));
    m.record(rec({ sendMs: 0, chunksMs: [6], endMs: 12 }));
    expect(m.text()).not.toContain('goodput_level_in_flight');
    // A replacement on time (at 10, with the other still open), then one that lagged (sent at 30, alone).
    m.record(rec({ targetSendMs: 10, sendMs: 10, chunksMs: [15], endMs: 20 }));
    m.record(rec({ targetSendMs: 12, sendMs: 30, chunksMs: [35], endMs: 40 }));
    m.record(rec({ warmup: true, sendMs: 50, endMs: 60 }));
    const text = m.text();
    expect(parsePrometheusText(text).badLines).toEqual([]);
    expect(value(text, 'goodput_level_in_flight', { statistic: 'latest' })).toBe(1);
    expect(value(text, 'goodput_level_in_flight', { statistic: 'p50' })).toBe(1.5);
    expect(value(text, 'goodput_level_in_flight', { statistic: 'min' })).toBe(1);
    m.levelStart(4, 8);
    expect(m.text()).not.toContain('goodput_level_in_flight');
  });
});

describe('the metrics endpoint', () => {
  it('answers GET /metrics only, on loopback, and is gone once closed', async () => {
    let n = 0;
    const server = await serveMetrics('127.0.0.1', 0, () => `goodput_x ${++n}\n`);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const ok = await fetch(server.url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await ok.text()).toBe('goodput_x 1\n');
    expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(server.url, { method: 'POST', body: 'x' })).status).toBe(405);
    await server.close();
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('refuses a port already taken, naming it', async () => {
    const first = await serveMetrics('127.0.0.1', 0, () => '');
    const port = Number(new URL(first.url).port);
    try {
      await expect(serveMetrics('127.0.0.1', port, () => '')).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    } finally {
      await first.close();
    }
  });
});
