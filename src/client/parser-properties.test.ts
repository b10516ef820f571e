// Property tests of the byte parsers and the client: any split of a valid
// stream gives the same events as the whole; random bytes never throw, never
// let a line or an event grow past its limit, and through the client always end
// as a failed record with an outcome kind.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitBytes } from '../test-support/split-bytes.js';
import { NdjsonParser } from './ndjson-parser.js';
import { SseParser } from './sse-parser.js';
import { StreamRecorder } from './stream-recorder.js';
import { dialects } from './dialects/registry.js';
import { createStreamingClient } from './streaming-client.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';

function sse(pieces: Buffer[]): string[] {
  const out: string[] = [];
  const p = new SseParser((d) => out.push(d));
  for (const piece of pieces) p.push(piece);
  p.end();
  return out;
}

function ndjson(pieces: Buffer[]): string[] {
  const out: string[] = [];
  const p = new NdjsonParser((l) => out.push(l));
  for (const piece of pieces) p.push(piece);
  p.end();
  return out;
}

/** Text of one SSE data line: anything but CR and LF (a leading space is eaten by the framing, so none). */
const lineText = fc.string({ unit: fc.constantFrom('a', 'é', '猫', '🤔', '{', '}', '"', ':', ' ', 'x', '0') }).map((s) => s.replace(/^ /, '_'));
const sseEvent = fc.record({ lines: fc.array(lineText, { minLength: 1, maxLength: 3 }), comment: fc.boolean() });
/** One line ending for the whole stream (a CR then an LF would be one CRLF, not two line ends). */
const eol = fc.constantFrom('\n', '\r\n', '\r');

describe('SSE parser properties', () => {
  it('any split of a valid stream gives the events of the whole, which are the events written', () => {
    fc.assert(
      fc.property(fc.array(sseEvent, { maxLength: 8 }), eol, fc.array(fc.nat(), { maxLength: 12 }), (events, end, cuts) => {
        const text = events.map((e) => `${e.comment ? `: ping${end}` : ''}${e.lines.map((l) => `data: ${l}${end}`).join('')}${end}`).join('');
        const bytes = Buffer.from(text);
        const expected = events.map((e) => e.lines.join('\n'));
        expect(sse([bytes])).toEqual(expected);
        expect(sse(splitBytes(bytes, cuts))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('random bytes never throw, and no event or held line passes the limits', () => {
    const limits = { lineBytes: 64, eventBytes: 128 };
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 10 }), (chunks) => {
        const out: string[] = [];
        const p = new SseParser((d) => out.push(d), limits);
        for (const c of chunks) p.push(Buffer.from(c));
        p.end();
        // Each input byte decodes to at most one UTF-16 unit (an invalid one becomes U+FFFD).
        for (const d of out) expect(d.length).toBeLessThanOrEqual(limits.eventBytes);
        if (p.overflow !== null) expect(p.overflow.message).toMatch(/went past the limit of/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('NDJSON parser properties', () => {
  it('any split of valid JSON lines gives the lines of the whole', () => {
    const line = fc.json().filter((j) => j.trim() !== '' && !j.includes('\n') && !j.includes('\r'));
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), (lines, cuts) => {
        const bytes = Buffer.from(lines.map(([l, e]) => l + e).join(''));
        const expected = lines.map(([l]) => l);
        expect(ndjson([bytes])).toEqual(expected);
        expect(ndjson(splitBytes(bytes, cuts))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('random bytes never throw and no line passes the limit', () => {
    const limits = { lineBytes: 64, eventBytes: 64 };
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 10 }), (chunks) => {
        const out: string[] = [];
        const p = new NdjsonParser((l) => out.push(l), limits);
        for (const c of chunks) p.push(Buffer.from(c));
        p.end();
        for (const l of out) expect(l.length).toBeLessThanOrEqual(limits.lineBytes);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the recorder on random events', () => {
  it('never throws whatever the event text, for every wire format', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json()), { maxLength: 20 }), (events) => {
        for (const d of [dialects.vllm, dialects['ollama-native']]) {
          const rec = new StreamRecorder(d.stream, 8);
          for (const e of events) rec.onData(e);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the client on random bytes', () => {
  let server: TestServer;
  let body = Buffer.alloc(0);
  beforeAll(async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('ends every random body as a failed record with an outcome kind, never a rejection', async () => {
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    const spec = { endpoint: 'chat' as const, model: 'm', prompt: 'hi', maxTokens: 8, forceLength: false, thinking: false };
    try {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
          body = Buffer.from(bytes);
          const r = await client.send(spec, { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 });
          expect(r.outcome.kind).not.toBe('ok');
          expect(['stream-error', 'truncated', 'response-too-large', 'stream-overrun']).toContain(r.outcome.kind);
        }),
        { numRuns: 60 },
      );
    } finally {
      await client.close();
    }
  });
});
