/** Spans over OTLP/HTTP JSON: their shape, batches, the bounded queue, and failures counted, never thrown. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { rec } from '../test-support/records.js';
import { closedPort, startServer } from '../test-support/scripted-server.js';
import { type OtlpPost, otlpExporter, rejectedSpans, unixNanos } from './otlp-export.js';

const TRACE = 'ab'.repeat(16);
const SPAN = 'cd'.repeat(8);
const traced = {
  ...rec({ sendMs: 10, chunksMs: [30, 40, 50], endMs: 60, outputTokens: 3, promptTokens: 7, concurrency: 4 }),
  requestId: 'gp-1',
  traceId: TRACE,
  spanId: SPAN,
};

/** A POST that keeps every body and answers `status` (and `text`). */
function keeping(status = 200, text = '{}'): { post: OtlpPost; bodies: unknown[] } {
  const bodies: unknown[] = [];
  return { bodies, post: async (b) => (bodies.push(JSON.parse(b)), { ok: true, status, text }) };
}
type Export = { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope: unknown; spans: Array<Record<string, unknown>> }> }> };
const spansOf = (bodies: unknown[]) => bodies.flatMap((b) => (b as Export).resourceSpans[0]?.scopeSpans[0]?.spans ?? []);

describe('OTLP export', () => {
  it('writes one CLIENT span per request with the ids it sent, unix-nanosecond times and the attributes', async () => {
    const { post, bodies } = keeping();
    const ex = otlpExporter({ url: 'http://127.0.0.1:1/v1/traces', version: '9.9.9', post, originMs: 1_700_000_000_000.5 });
    ex.add(traced, 2);
    expect(bodies).toHaveLength(0);
    await ex.flush();
    const body = bodies[0] as Export;
    expect(body.resourceSpans[0]?.resource).toEqual({ attributes: [{ key: 'service.name', value: { stringValue: 'goodput' } }] });
    expect(body.resourceSpans[0]?.scopeSpans[0]?.scope).toEqual({ name: 'goodput', version: '9.9.9' });
    const [span] = spansOf(bodies);
    expect(span).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      name: 'goodput request',
      kind: 3,
      startTimeUnixNano: '1700000000010500000',
      endTimeUnixNano: '1700000000060500000',
      status: { code: 1 },
    });
    expect(span?.attributes).toEqual(
      expect.arrayContaining([
        { key: 'goodput.request_id', value: { stringValue: 'gp-1' } },
        { key: 'goodput.level', value: { intValue: '2' } },
        { key: 'goodput.concurrency', value: { intValue: '4' } },
        { key: 'goodput.outcome', value: { stringValue: 'ok' } },
        { key: 'goodput.output_tokens', value: { intValue: '3' } },
        { key: 'goodput.prompt_tokens', value: { intValue: '7' } },
        { key: 'goodput.ttft_ms', value: { doubleValue: 20 } },
      ]),
    );
    expect(ex.report()).toEqual({ queued: 1, exported: 1, failed: 0, dropped: 0, lastError: null });
  });

  it('marks a failed request ERROR with its outcome kind, never the server text; a record sent without traceparent gets ids of its own', async () => {
    const { post, bodies } = keeping();
    const ex = otlpExporter({ url: 'http://x/v1/traces', version: '1', post });
    ex.add(rec({ outcome: { kind: 'http-error', status: 500, message: 'secret server words' } }), 0);
    await ex.flush();
    const [span] = spansOf(bodies);
    expect(span?.status).toEqual({ code: 2, message: 'http-error' });
    expect(JSON.stringify(bodies)).not.toContain('secret server words');
    expect(span?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span?.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('leaves the status of a request given up on purpose unset: no error, its outcome attribute says why', async () => {
    const { post, bodies } = keeping();
    const ex = otlpExporter({ url: 'http://x/v1/traces', version: '1', post });
    ex.add(rec({ chunksMs: [5], endMs: 6, outcome: { kind: 'cancelled', after: 'ms', phase: 'stream' } }), 0);
    await ex.flush();
    const [span] = spansOf(bodies);
    expect(span?.status).toEqual({ code: 0 });
    expect(span?.attributes).toContainEqual({ key: 'goodput.outcome', value: { stringValue: 'cancelled' } });
  });

  it('sends at most otlpBatchSpans per request', async () => {
    const { post, bodies } = keeping();
    const ex = otlpExporter({ url: 'http://x/v1/traces', version: '1', post });
    const n = LIMITS.otlpBatchSpans.max + 88;
    for (let i = 0; i < n; i++) ex.add(traced, 0);
    await ex.flush();
    expect(bodies.map((b) => spansOf([b]).length)).toEqual([LIMITS.otlpBatchSpans.max, 88]);
    expect(ex.report().exported).toBe(n);
  });

  it('drops and counts spans past otlpQueueSpans', async () => {
    const { post } = keeping();
    const ex = otlpExporter({ url: 'http://x/v1/traces', version: '1', post });
    for (let i = 0; i < LIMITS.otlpQueueSpans.max + 3; i++) ex.add(traced, 0);
    expect(ex.report()).toMatchObject({ queued: LIMITS.otlpQueueSpans.max, dropped: 3 });
  });

  it('counts an HTTP error, and the rest of the queue, as failed without throwing', async () => {
    const { post, bodies } = keeping(503);
    const ex = otlpExporter({ url: 'http://x/v1/traces', version: '1', post });
    for (let i = 0; i < LIMITS.otlpBatchSpans.max + 1; i++) ex.add(traced, 0);
    await ex.flush();
    expect(bodies).toHaveLength(1);
    expect(ex.report()).toEqual({
      queued: LIMITS.otlpBatchSpans.max + 1,
      exported: 0,
      failed: LIMITS.otlpBatchSpans.max + 1,
      dropped: 0,
      lastError: 'HTTP 503',
    });
  });

  it('counts a collector that is not there as failed, over real HTTP', async () => {
    const ex = otlpExporter({ url: `http://127.0.0.1:${await closedPort()}/v1/traces`, version: '1', timeoutMs: 2000 });
    ex.add(traced, 0);
    await expect(ex.flush()).resolves.toBeUndefined();
    expect(ex.report()).toMatchObject({ exported: 0, failed: 1, lastError: 'ECONNREFUSED' });
  });

  it("counts a partial success's rejected spans as failed, bounded by what was sent", async () => {
    const collector = await startServer((_req, res) => void res.end(JSON.stringify({ partialSuccess: { rejectedSpans: '1', errorMessage: 'x' } })));
    try {
      const ex = otlpExporter({ url: `${collector.url}/v1/traces`, version: '1' });
      ex.add(traced, 0);
      ex.add(traced, 0);
      await ex.flush();
      expect(ex.report()).toMatchObject({ exported: 1, failed: 1, lastError: 'the collector rejected 1 span(s)' });
      expect(collector.requests[0]?.headers['content-type']).toBe('application/json');
    } finally {
      await collector.close();
    }
    expect(rejectedSpans('{"partialSuccess":{"rejectedSpans":99}}', 2)).toBe(2);
    expect(rejectedSpans('not json', 2)).toBe(0);
    expect(rejectedSpans('{"partialSuccess":{"rejectedSpans":-1}}', 2)).toBe(0);
  });

  it('writes epoch nanoseconds exactly past 2^53', () => {
    expect(unixNanos(1_700_000_000_000, 1)).toBe('1700000000000000001');
  });
});
