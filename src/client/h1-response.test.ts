// The HTTP/1.1 response reader of the measured send path, by properties: any
// split of a response gives the same head, body and end as the whole; random
// bytes never throw anything but a coded error and never hold more than one
// head or one chunk line; framing errors are named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitBytes } from '../test-support/split-bytes.js';
import { H1Response, MAX_HEAD_BYTES } from './h1-response.js';

interface Seen {
  status: number | null;
  body: Buffer;
  ends: boolean[];
  heads: number;
}

function read(pieces: Buffer[]): Seen {
  const seen: Seen = { status: null, body: Buffer.alloc(0), ends: [], heads: 0 };
  const r = new H1Response(
    {
      head: (status) => {
        seen.status = status;
        seen.heads++;
      },
      body: (chunk) => {
        seen.body = Buffer.concat([seen.body, chunk]);
      },
      end: (keepAlive) => {
        seen.ends.push(keepAlive);
      },
    },
    false,
  );
  for (const p of pieces) r.push(p);
  return seen;
}

const chunked = (parts: Buffer[]) =>
  Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n'),
    ...parts.filter((p) => p.length > 0).map((p) => Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')])),
    Buffer.from('0\r\n\r\n'),
  ]);

describe('H1Response', () => {
  it('gives the same body and one keep-alive end for any split of a chunked response', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 30 }), (parts, cuts) => {
        const bufs = parts.map((p) => Buffer.from(p));
        const seen = read(splitBytes(chunked(bufs), cuts));
        expect(seen.status).toBe(200);
        expect(seen.body.equals(Buffer.concat(bufs))).toBe(true);
        expect(seen.ends).toEqual([true]);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a Content-Length body to its length, and a body without framing until the close', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(), { maxLength: 20 }), (body, cuts) => {
        const b = Buffer.from(body);
        const whole = Buffer.concat([Buffer.from(`HTTP/1.1 500 Internal Server Error\r\nContent-Length: ${b.length}\r\n\r\n`), b]);
        const seen = read(splitBytes(whole, cuts));
        expect(seen.body.equals(b)).toBe(true);
        expect(seen.ends).toEqual([true]);
      }),
      { numRuns: 200 },
    );
    const open = read([Buffer.from('HTTP/1.1 200 OK\r\n\r\ndata: x\n\n')]);
    expect(open.body.toString()).toBe('data: x\n\n');
    expect(open.ends).toEqual([]);
  });

  it('skips informational heads, and a Connection: close response does not keep its socket', () => {
    const seen = read([Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok')]);
    expect(seen).toMatchObject({ status: 200, heads: 1, ends: [false] });
    expect(seen.body.toString()).toBe('ok');
  });

  it('does not keep a socket that sent bytes past the response end', () => {
    expect(read([Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n')]).ends).toEqual([false]);
  });

  it('names malformed framing with a code, and never holds more than one head', () => {
    const code = (text: string | Buffer) => {
      try {
        read([Buffer.isBuffer(text) ? text : Buffer.from(text)]);
        return null;
      } catch (err) {
        return (err as { code?: string }).code;
      }
    };
    expect(code('SSH-2.0-OpenSSH\r\n\r\n')).toBe('HPE_INVALID_CONSTANT');
    expect(code('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n')).toBe('HPE_INVALID_CHUNK_SIZE');
    expect(code('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nokX')).toBe('HPE_INVALID_CHUNK_SIZE');
    expect(code('HTTP/1.1 200 OK\r\ncontent-length: 1, 2\r\n\r\n')).toBe('HPE_INVALID_CONTENT_LENGTH');
    expect(code('HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\n')).toBe('HPE_INVALID_TRANSFER_ENCODING');
    expect(code('HTTP/1.1 200 OK\r\nbad header\r\n\r\n')).toBe('HPE_INVALID_HEADER_TOKEN');
    expect(code(Buffer.alloc(MAX_HEAD_BYTES + 10, 'a'))).toBe('UND_ERR_HEADERS_OVERFLOW');
    expect(code(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`)).toBe('UND_ERR_HEADERS_OVERFLOW');
    expect(code(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${'1'.repeat(5000)}`)).toBe('HPE_INVALID_CHUNK_SIZE');
  });

  it('random bytes either read or fail with a coded error, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
        const whole = Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n'), Buffer.from(bytes)]);
        try {
          read(splitBytes(whole, cuts));
        } catch (err) {
          expect((err as { code?: string }).code).toMatch(/^(HPE_|UND_ERR_)/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
