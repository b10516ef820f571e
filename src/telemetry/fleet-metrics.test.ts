/**
 * A fleet's counters against fake servers on 127.0.0.1: the replicas' own
 * endpoints merged so a counter sums over them, a replica without one named,
 * and a Prometheus server's query API read, or refused by name when its answer
 * cannot stand for the servers' counters. GETs only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  it('gives up on an answer past the probe limit, or one that trickles in forever, within the scrape timeout', async () => {
    const open = (url: string) => openPrometheusMetrics({ url, selector: '{job="vllm"}', intervalMs: 10_000, timeoutMs: 300 });
    const big = await serve(() => ({ body: `{"status":"success",${' '.repeat(9 * 1024 * 1024)}}`, contentType: 'application/json' }));
    expect(await open(big.url)).toEqual({ ok: false, reason: `${big.url}: the answer is larger than 8388608 bytes` });
    // One byte every 20 ms keeps an idle timer alive for ever: the whole answer has the timeout.
    const trickle = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(trickle.address() as AddressInfo).port}`;
    try {
      expect(await open(url)).toEqual({ ok: false, reason: `${url}: no answer within 300 ms` });
    } finally {
      trickle.closeAllConnections();
      trickle.close();
    }
  });

  it('takes a counter stated as +Inf as no figure, as NaN is none', async () => {
    const vector = JSON.stringify({
      status: 'success',
      data: {
        resultType: 'vector',
        result: [
          { metric: { __name__: 'vllm:request_success_total', instance: 'a:8000' }, value: [1, '+Inf'] },
          { metric: { __name__: 'vllm:generation_tokens_total', instance: 'a:8000' }, value: [1, '12'] },
        ],
      },
    });
    const prom = await serve(() => ({ body: vector, contentType: 'application/json' }));
    const opened = await openPrometheusMetrics({ url: prom.url, selector: '{job="vllm"}', intervalMs: 10_000, hint: 'vllm' });
    if (!opened.ok) throw new Error(opened.reason);
    await opened.session.begin();
    const scrapes = await opened.session.end(0);
    if ('error' in scrapes) throw new Error(scrapes.error);
    // Before: +Inf was summed as a value, and every difference from it was Infinity, which no result can hold.
    expect(seriesValue(scrapes.after, 'vllm:request_success_total', { combine: 'sum' })).toBeNull();
    expect(seriesValue(scrapes.after, 'vllm:generation_tokens_total', { combine: 'sum' })).toBe(12);
  });
});
