/**
 * A run others can observe, end to end through `goodput sweep`: a test OTLP
 * collector receives one span per request carrying the trace id the server saw
 * in `traceparent` (a recording front before the simulator); `--serve-metrics`
 * scraped while a slow run runs returns the live request counter; the flags'
 * refusals name the flag.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { type TestServer, closedPort, startServer } from '../test-support/scripted-server.js';

let sim: SimServer;
let front: TestServer;
let collector: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
  // The server side: records every request's headers (traceparent among them), then hands it to the simulator.
  front = await startServer((req, res, body) => {
    const up = httpRequest(`${sim.url}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.end(body);
  });
  collector = await startServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
afterAll(async () => {
  await Promise.all([front?.close(), collector?.close()]);
  await sim?.close();
});

const QUICK = ['--output-tokens', '4', '--prompt-tokens', '8', '--no-server-metrics', '--gpu-source', 'none', '--client-threads', '1'];
type Span = { traceId: string; spanId: string; attributes: Array<{ key: string; value: Record<string, unknown> }> };
const attr = (s: Span, key: string) => Object.values(s.attributes.find((a) => a.key === key)?.value ?? {})[0];
const generations = () => front.requests.filter((r) => r.url.endsWith('/chat/completions'));

describe('--otlp with traceparent', () => {
  it('exports one span per request, each with the trace id and parent span the server saw', async () => {
    front.requests.length = 0;
    collector.requests.length = 0;
    const r = await cli([
      'sweep',
      '--url',
      front.url,
      '--levels',
      '1,2',
      '--requests-per-level',
      '4',
      '--warmup',
      '1',
      ...QUICK,
      '--otlp',
      `${collector.url}/v1/traces`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const sent = generations().map((g) => {
      const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(g.headers.traceparent));
      return { traceId: m?.[1], spanId: m?.[2], requestId: g.headers['x-request-id'] as unknown };
    });
    expect(sent).toHaveLength(10);
    expect(collector.requests.every((c) => c.url === '/v1/traces' && c.headers['content-type'] === 'application/json')).toBe(true);
    const spans = collector.requests.flatMap(
      (c) => (JSON.parse(c.body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> }).resourceSpans[0]?.scopeSpans[0]?.spans ?? [],
    );
    expect(spans).toHaveLength(10);
    const exported = spans.map((s) => ({ traceId: s.traceId, spanId: s.spanId, requestId: attr(s, 'goodput.request_id') }));
    const byTrace = (xs: typeof sent) => [...xs].sort((a, b) => String(a.traceId).localeCompare(String(b.traceId)));
    expect(byTrace(exported)).toEqual(byTrace(sent));
    expect(new Set(spans.map((s) => attr(s, 'goodput.concurrency')))).toEqual(new Set(['1', '2']));
    expect(spans.every((s) => attr(s, 'goodput.outcome') === 'ok')).toBe(true);
  });

  it('sends no traceparent with --no-traceparent, and says so when the collector is not there, exiting 0', async () => {
    front.requests.length = 0;
    const gone = await closedPort();
    const r = await cli([
      'sweep',
      '--url',
      front.url,
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--warmup',
      '0',
      ...QUICK,
      '--no-traceparent',
      '--otlp',
      `http://127.0.0.1:${gone}/v1/traces`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(generations().map((g) => g.headers.traceparent)).toEqual([undefined, undefined]);
    expect(r.stderr).toContain('--otlp: 0 of 2 spans exported; 2 failed, 0 dropped past the queue (last: ECONNREFUSED)');
  });
});

describe('--otlp-header', () => {
  it("sends each header with every export, and records every value redacted in the result's command", async () => {
    collector.requests.length = 0;
    const out = join(mkdtempSync(join(tmpdir(), 'goodput-otlp-')), 'run.json');
    const secret = 'sk-4f9a2c7e1b8d3f6a0c5e9b2d';
    const args = [
      'sweep',
      '--url',
      front.url,
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--warmup',
      '0',
      ...QUICK,
      '--otlp',
      `${collector.url}/v1/traces`,
      '--otlp-header',
      `Authorization=Bearer ${secret}`,
      '--otlp-header=X-Team=blue',
      '--json',
      out,
    ];
    // The command a result records is read from the process's own argv, as the real CLI's is.
    const argv = process.argv;
    process.argv = ['node', 'goodput', ...args];
    const r = await cli(args).finally(() => {
      process.argv = argv;
    });
    expect(r.code, r.stderr).toBe(0);
    expect(collector.requests.length).toBeGreaterThan(0);
    for (const c of collector.requests) {
      expect(c.headers['authorization']).toBe(`Bearer ${secret}`);
      expect(c.headers['x-team']).toBe('blue');
      expect(c.headers['content-type']).toBe('application/json');
    }
    const saved = readFileSync(out, 'utf8');
    expect(saved).not.toContain(secret);
    expect(JSON.parse(saved).run.command).toContain('--otlp-header Authorization=[redacted] --otlp-header=X-Team=[redacted]');
  });

  it('refuses a header without --otlp, one not NAME=value (naming its place, not its value), one of our own, and pooling', async () => {
    const base = ['sweep', '--url', front.url, '--levels', '1', ...QUICK];
    const refused = async (args: string[], message: string) => {
      const r = await cli([...base, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      return r;
    };
    await refused(['--otlp-header', 'X-Team=blue'], '--otlp-header: needs --otlp');
    const otlp = ['--otlp', `${collector.url}/v1/traces`];
    const colon = await refused(
      [...otlp, '--otlp-header', 'X-Team=blue', '--otlp-header', 'Authorization: Bearer hunter2'],
      '--otlp-header: argument 2 is not NAME=value (e.g. Authorization=Bearer …)',
    );
    expect(colon.stderr).not.toContain('hunter2');
    // Base64 padding puts an = inside the value: before, the name's check showed what stood before it, the credential.
    const padded = await refused(
      [...otlp, '--otlp-header', 'Authorization: Basic dXNlcjpwYXNzd29yZA=='],
      "--otlp-header: argument 1: what comes before its first = is not a header name (letters, digits and !#$%&'*+.^_`|~- only); write NAME=value, e.g. Authorization=Bearer …",
    );
    expect(padded.stderr).not.toContain('dXNlcjpw');
    await refused(
      [...otlp, '--otlp-header', 'Content-Type=text/plain'],
      '--otlp-header: Content-Type is set by goodput or by the connection itself, never by --otlp-header',
    );
    await refused([...otlp, '--otlp-header', 'X-Team=a', '--otlp-header', 'x-team=b'], '--otlp-header: x-team is given twice');
    const pooling = await cli(['sweep', '--url', front.url, '--endpoint', 'embeddings', '--levels', '1', '--otlp-header', 'X-Team=a']);
    expect(pooling.code).toBe(2);
    expect(pooling.stderr).toContain('--otlp-header: does not apply to --endpoint embeddings');
  });
});

describe('traceparent on embeddings', () => {
  it('each embeddings request carries one, a fresh trace each, and none with --no-traceparent', async () => {
    const embeddings = () => front.requests.filter((r) => r.url.endsWith('/embeddings'));
    const args = [
      'sweep',
      '--url',
      front.url,
      '--endpoint',
      'embeddings',
      '--levels',
      '1,2',
      '--requests-per-level',
      '3',
      '--warmup',
      '1',
      '--prompt-tokens',
      '8',
      '--client-threads',
      '1',
    ];
    front.requests.length = 0;
    const on = await cli(args);
    expect(on.code, on.stderr).toBe(0);
    const seen = embeddings().map((g) => String(g.headers.traceparent));
    // The route's probe, then two levels of a warm-up and 3 requests.
    expect(seen).toHaveLength(9);
    for (const t of seen) expect(t).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(new Set(seen).size).toBe(9);
    front.requests.length = 0;
    const off = await cli([...args, '--no-traceparent']);
    expect(off.code, off.stderr).toBe(0);
    expect(embeddings().map((g) => g.headers.traceparent)).toEqual(Array(9).fill(undefined));
  });
});

describe('--serve-metrics', () => {
  it('answers the live request counter while a slow run runs, and closes with it', async () => {
    // Slow decode: each request streams 20 tokens 25 ms apart, one at a time: the run is mid-way for seconds.
    const slow = await startSimulator({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 25, decodeMsPerExtraSeq: 0 });
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/metrics`;
    try {
      let settled = false;
      const run = cli([
        'sweep',
        '--url',
        slow.url,
        '--levels',
        '1',
        '--requests-per-level',
        '6',
        '--warmup',
        '0',
        ...QUICK,
        '--output-tokens',
        '20',
        '--serve-metrics',
        `127.0.0.1:${port}`,
      ]).finally(() => {
        settled = true;
      });
      let live: { done: number; left: number; whileRunning: boolean } | null = null;
      while (live === null && !settled) {
        const text = await fetch(url).then(
          (a) => a.text(),
          () => null,
        );
        const byName = text === null ? null : parsePrometheusText(text).byName;
        const done = byName?.get('goodput_requests_completed_total')?.find((s) => s.labels['outcome'] === 'ok')?.value ?? 0;
        if (byName && done > 0) live = { done, left: byName.get('goodput_level_requests_left')?.[0]?.value ?? -1, whileRunning: !settled };
        else await new Promise((r) => setTimeout(r, 20));
      }
      const r = await run;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`live metrics at ${url}`);
      expect(live).not.toBeNull();
      expect(live?.whileRunning).toBe(true);
      expect(live?.done).toBeGreaterThan(0);
      expect((live?.done ?? 0) + (live?.left ?? 0)).toBe(6);
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      await slow.close();
    }
  });

  it('refuses an address that is not [host:]port, and a port in use, naming the flag', async () => {
    const bad = await cli(['sweep', '--url', front.url, '--levels', '1', '--serve-metrics', 'localhost:port']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--serve-metrics: 'localhost:port' is not [host:]port (e.g. 127.0.0.1:9464, or 9464 for loopback)");
    const taken = Number(new URL(front.url).port);
    const busy = await cli(['sweep', '--url', front.url, '--levels', '1', ...QUICK, '--serve-metrics', `127.0.0.1:${taken}`]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain(`--serve-metrics: cannot listen on 127.0.0.1:${taken}: EADDRINUSE`);
    const otlp = await cli(['sweep', '--url', front.url, '--levels', '1', '--otlp', 'ftp://127.0.0.1/v1/traces']);
    expect(otlp.code).toBe(2);
    expect(otlp.stderr).toContain("--otlp: 'ftp://127.0.0.1/v1/traces' must use http or https");
    const pooling = await cli(['sweep', '--url', front.url, '--endpoint', 'embeddings', '--levels', '1', '--serve-metrics', '9464']);
    expect(pooling.code).toBe(2);
    expect(pooling.stderr).toContain('--serve-metrics: does not apply to --endpoint embeddings');
  });
});
