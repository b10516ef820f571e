/**
 * A fleet's counters against fake servers on 127.0.0.1: the replicas' own
 * endpoints merged so a counter sums over them, a replica without one named,
 * and a Prometheus server's query API read, or refused by name when its answer
 * cannot stand for the servers' counters. GETs only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seriesValue } from '../core/index.js';
import { type TextServer, startTextServer } from '../test-support/text-server.js';
import { openFleetMetrics, openPrometheusMetrics } from './fleet-metrics.js';

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
const vllmText = (success: number) => `vllm:request_success_total{finished_reason="length"} ${success}\nvllm:num_requests_running 1\n`;

describe('a fleet scraped directly', () => {
  it("sums each counter over the replicas' endpoints, each series labelled by its endpoint", async () => {
    let n = 0;
    const a = await serve((p) => (p === '/metrics' ? { body: vllmText(10 + n) } : null));
    const b = await serve((p) => (p === '/metrics' ? { body: vllmText(100 + 2 * n) } : null));
    const opened = await openFleetMetrics({ baseUrls: [a.url, b.url], intervalMs: 10_000, hint: 'vllm' });
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.session.url).toBe(`${a.url}/metrics + ${b.url}/metrics`);
    await opened.session.begin();
    n = 5;
    const scrapes = await opened.session.end(15);
    if ('error' in scrapes) throw new Error(scrapes.error);
    const done = (s: typeof scrapes.after) => seriesValue(s, 'vllm:request_success_total', { combine: 'sum' });
    expect([done(scrapes.before), done(scrapes.after)]).toEqual([110, 125]);
    expect(scrapes.after.byName.get('vllm:num_requests_running')?.map((s) => s.labels.instance)).toEqual([`${a.url}/metrics`, `${b.url}/metrics`]);
    expect([...a.requests, ...b.requests].every((r) => r.startsWith('GET '))).toBe(true);
  });

  it('names the replica without a metrics endpoint', async () => {
    const a = await serve((p) => (p === '/metrics' ? { body: vllmText(1) } : null));
    const b = await serve(() => null);
    const opened = await openFleetMetrics({ baseUrls: [a.url, b.url], intervalMs: 10_000 });
    expect(opened.ok).toBe(false);
    expect(opened.ok ? '' : opened.reason).toMatch(
      new RegExp(`^target ${b.url}: no Prometheus metrics at ${b.url}/prometheus/metrics \\(HTTP 404\\) or ${b.url}/metrics \\(HTTP 404\\)`),
    );
  });
});

describe('a fleet read from a Prometheus server', () => {
  const vector = (success: number) =>
    JSON.stringify({
      status: 'success',
      data: {
        resultType: 'vector',
        result: [
          { metric: { __name__: 'vllm:request_success_total', finished_reason: 'length', instance: 'a:8000', job: 'vllm' }, value: [1, String(success)] },
          { metric: { __name__: 'vllm:request_success_total', finished_reason: 'length', instance: 'b:8000', job: 'vllm' }, value: [1, String(2 * success)] },
        ],
      },
    });

  it('asks the instant query of the selector at the instant of each scrape', async () => {
    const prom = await serve((p) => (p.startsWith('/api/v1/query?') ? { body: vector(7), contentType: 'application/json' } : null));
    const opened = await openPrometheusMetrics({
      url: `${prom.url}/`,
      selector: '{job="vllm"}',
      intervalMs: 10_000,
      hint: 'vllm',
      nowMs: () => 1_700_000_000_250,
    });
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.session.url).toBe(`${prom.url}/ {job="vllm"}`);
    await opened.session.begin();
    const scrapes = await opened.session.end(0);
    if ('error' in scrapes) throw new Error(scrapes.error);
    expect(seriesValue(scrapes.after, 'vllm:request_success_total', { combine: 'sum' })).toBe(21);
    expect(prom.requests[0]).toBe(`GET /api/v1/query?query=${encodeURIComponent('{job="vllm"}')}&time=1700000000.250`);
  });

  it('refuses an answer that cannot stand for the counters, naming why', async () => {
    const reason = async (answer: Parameters<typeof startTextServer>[0]) => {
      const prom = await serve(answer);
      const opened = await openPrometheusMetrics({ url: prom.url, selector: '{job="vllm"}', intervalMs: 10_000 });
      return { url: prom.url, reason: opened.ok ? null : opened.reason };
    };
    const bad = await reason(() => ({ status: 400, body: '{"status":"error"}', contentType: 'application/json' }));
    expect(bad.reason).toBe(`${bad.url}: HTTP 400 to the query {job="vllm"}`);
    const text = await reason(() => ({ body: 'vllm:x 1' }));
    expect(text.reason).toBe(`${text.url}: the query API answered something that is not JSON`);
    const none = await reason(() => ({ body: JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } }) }));
    expect(none.reason).toBe(`${none.url} {job="vllm"}: the selector picks no series`);
  });
});
