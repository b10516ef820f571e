/**
 * Finding and scraping a server's Prometheus endpoint, against fake servers on
 * 127.0.0.1: path probing (TRT-LLM's destructive JSON `/metrics` is never read
 * when its Prometheus path answers), scrapes around a level, gauge sampling, and
 * only GETs of the metrics path, ever.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type TextServer, startTextServer } from '../test-support/text-server.js';
import { serverRoot } from '../client/index.js';
import { findMetricsEndpoint } from './metrics-endpoint.js';
import { measureRttMs } from './rtt.js';
import { openServerMetrics } from './server-metrics.js';

let servers: TextServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function serve(answer: Parameters<typeof startTextServer>[0]) {
  const s = await startTextServer(answer);
  servers.push(s);
  return s;
}
const vllmText = (v: { success: number; running: number }) =>
  `vllm:request_success_total{finished_reason="length"} ${v.success}\nvllm:num_requests_running ${v.running}\nvllm:num_requests_waiting 0\n`;

describe('finding the metrics endpoint', () => {
  it('strips /v1 from the base URL and finds /metrics after /prometheus/metrics answers 404', async () => {
    const s = await serve((p) => (p === '/metrics' ? { body: vllmText({ success: 0, running: 0 }) } : null));
    expect(serverRoot(`${s.url}/v1/`)).toBe(s.url);
    const found = await findMetricsEndpoint(`${s.url}/v1`, null);
    expect(found).toMatchObject({ ok: true, url: `${s.url}/metrics` });
    expect(s.requests).toEqual(['GET /prometheus/metrics', 'GET /metrics']);
  });
  it("takes TRT-LLM's /prometheus/metrics and never touches its destructive JSON /metrics", async () => {
    const s = await serve((p) =>
      p === '/prometheus/metrics' ? { body: 'trtllm_num_requests_running 0\n' } : p === '/metrics' ? { body: '[]', contentType: 'application/json' } : null,
    );
    expect(await findMetricsEndpoint(s.url, null)).toMatchObject({ ok: true, url: `${s.url}/prometheus/metrics` });
    expect(s.requests).toEqual(['GET /prometheus/metrics']);
  });
  it('says what each path answered and how to turn metrics on', async () => {
    const s = await serve((p) => (p === '/metrics' ? { body: '[{"iter": 1}]', contentType: 'application/json' } : null));
    const found = await findMetricsEndpoint(s.url, null);
    expect(found.ok).toBe(false);
    if (!found.ok) {
      expect(found.reason).toContain(`${s.url}/prometheus/metrics (HTTP 404)`);
      expect(found.reason).toContain(`${s.url}/metrics (JSON, not Prometheus text)`);
      expect(found.reason).toMatch(/llama\.cpp needs --metrics, SGLang --enable-metrics/);
    }
  });
  it("tries the detected engine's own path first, and gives its own advice when nothing answers", async () => {
    const s = await serve((p) => (p === '/engine/metrics' ? { body: vllmText({ success: 0, running: 0 }) } : null));
    expect(await findMetricsEndpoint(s.url, null, { preferredPath: '/engine/metrics' })).toMatchObject({ ok: true, url: `${s.url}/engine/metrics` });
    expect(s.requests).toEqual(['GET /engine/metrics']);
    const none = await findMetricsEndpoint(s.url, null, { preferredPath: '/metrics', missingHint: 'llama.cpp serves it only with --metrics' });
    expect(none.ok ? '' : none.reason).toMatch(/\(HTTP 404\); llama\.cpp serves it only with --metrics \(or pass --metrics-url\)$/);
  });
  it('with --metrics-url tries only that URL; an unreachable one is named', async () => {
    const s = await serve((p) => (p === '/custom' ? { body: vllmText({ success: 0, running: 0 }) } : null));
    expect(await findMetricsEndpoint('http://127.0.0.1:9', `${s.url}/custom`)).toMatchObject({ ok: true, url: `${s.url}/custom` });
    const gone = await findMetricsEndpoint(s.url, 'http://127.0.0.1:9/metrics');
    expect(gone).toEqual({ ok: false, reason: 'no Prometheus metrics at http://127.0.0.1:9/metrics (ECONNREFUSED)' });
  });
});

describe('a metrics session around a level', () => {
  it('scrapes before and after, samples gauges in between, and only ever GETs the metrics path', async () => {
    const state = { success: 10, running: 0 };
    const s = await serve((p) => (p === '/metrics' ? { body: vllmText(state) } : null));
    const opened = await openServerMetrics({ baseUrl: s.url, metricsUrl: null, intervalMs: 100 });
    if (!opened.ok) throw new Error(opened.reason);
    const { session } = opened;
    expect(session.map.family).toBe('vllm');
    await session.begin();
    state.running = 4;
    await new Promise((r) => setTimeout(r, 450));
    state.running = 0;
    state.success = 13;
    const got = await session.end(3);
    if ('error' in got) throw new Error(got.error);
    expect(got.readings.length).toBeGreaterThanOrEqual(2);
    expect(got.readings.length).toBeLessThanOrEqual(6);
    expect(got.readings.filter((r) => r.values.running === 4).length).toBeGreaterThanOrEqual(2);
    expect(got.before.byName.get('vllm:request_success_total')?.[0]?.value).toBe(10);
    expect(got.after.byName.get('vllm:request_success_total')?.[0]?.value).toBe(13);
    expect(new Set(s.requests)).toEqual(new Set(['GET /prometheus/metrics', 'GET /metrics']));
  });
  it('re-scrapes (bounded) until the server has counted the requests we finished', async () => {
    const state = { success: 0, running: 0 };
    let scrapes = 0;
    const s = await serve((p) => {
      if (p !== '/metrics') return null;
      scrapes++;
      // The server records its stats a moment after the last byte: counted from the 4th scrape on.
      if (scrapes >= 4) state.success = 2;
      return { body: vllmText(state) };
    });
    const opened = await openServerMetrics({ baseUrl: s.url, metricsUrl: null, intervalMs: 10_000 });
    if (!opened.ok) throw new Error(opened.reason);
    await opened.session.begin();
    const got = await opened.session.end(2);
    if ('error' in got) throw new Error(got.error);
    expect(got.after.byName.get('vllm:request_success_total')?.[0]?.value).toBe(2);
    expect(scrapes).toBe(4); // discovery, before, after ×2
    // A server that never counts them: at most 5 scrapes after, then the figures are taken as they are.
    const never = await openServerMetrics({ baseUrl: s.url, metricsUrl: null, intervalMs: 10_000 });
    if (!never.ok) throw new Error(never.reason);
    await never.session.begin();
    const before = scrapes;
    await never.session.end(99);
    expect(scrapes - before).toBe(5);
  });
  it('reports a scrape that failed instead of inventing figures', async () => {
    let up = true;
    const s = await serve((p) => (p === '/metrics' && up ? { body: vllmText({ success: 0, running: 0 }) } : null));
    const opened = await openServerMetrics({ baseUrl: s.url, metricsUrl: null, intervalMs: 10_000 });
    if (!opened.ok) throw new Error(opened.reason);
    await opened.session.begin();
    up = false;
    expect(await opened.session.end(0)).toEqual({ error: 'the scrape after the level failed: HTTP 404' });
  });
});

describe('round trip', () => {
  it('times a TCP connect to the server, and is null when nothing listens', async () => {
    const s = await serve(() => null);
    const rtt = await measureRttMs(s.url, 3);
    expect(rtt).not.toBeNull();
    expect(rtt).toBeLessThan(200);
    expect(s.requests).toEqual([]); // connects only: no request reaches the server
    expect(await measureRttMs('http://127.0.0.1:9', 2, 500)).toBeNull();
  });
});
