/**
 * An HTTP/1.1 response read from raw socket bytes, for the measured send path
 * (h1-pool.ts): the head (status line and headers, bounded), then the body by
 * its framing (chunked, Content-Length, or until the close), handed on as it
 * arrives so the stream parser starts on the first byte. Nothing is buffered
 * beyond one head or one chunk-size line; malformed framing is an error with a
 * stable code, never a guess.
 */

/** Most bytes of a response head (status line and headers), as undici's default. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Most bytes of one chunk-size line (size, extensions) or trailer line. */
const MAX_CHUNK_LINE_BYTES = 4096;

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/** A response framing or syntax error: the stream cannot be read on. */
export function protocolError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export interface ResponseListener {
  /** The head of a final (non-1xx) response. */
  head(status: number, statusText: string, headers: Record<string, string | string[]>): void;
  /** Body bytes, de-chunked. */
  body(chunk: Buffer): void;
  /** The body ended by its framing; `keepAlive` when the socket may carry another request. */
  end(keepAlive: boolean): void;
}

type State = 'head' | 'size' | 'data' | 'data-crlf' | 'trailers' | 'length' | 'close' | 'done';

/** One response on one connection; push every read, then `closed()` when the socket ends. */
export class H1Response {
  private state: State = 'head';
  private pending: Buffer | null = null;
  private left = 0;
  private keepAlive = true;
  private reported = false;

  constructor(
    private readonly listener: ResponseListener,
    private readonly noBody: boolean,
  ) {}

  /** True once the response ended by its framing. */
  get done(): boolean {
    return this.state === 'done';
  }

  /** True while the body lasts until the close (no framing): a close then ends it cleanly. */
  get untilClose(): boolean {
    return this.state === 'close';
  }

  /** Reads `chunk`. @throws Error (with a code) on a malformed or oversized head or framing. */
  push(chunk: Buffer): void {
    const buf = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = null;
    let at = 0;
    while (at < buf.length && this.state !== 'done') {
      switch (this.state) {
        case 'head': {
          const end = buf.indexOf(HEAD_END, at);
          if (end === -1) return this.keep(buf, at, MAX_HEAD_BYTES, 'UND_ERR_HEADERS_OVERFLOW', `the response head went past ${MAX_HEAD_BYTES} bytes`);
          if (end - at > MAX_HEAD_BYTES) throw protocolError('UND_ERR_HEADERS_OVERFLOW', `the response head went past ${MAX_HEAD_BYTES} bytes`);
          this.readHead(buf.toString('latin1', at, end));
          at = end + HEAD_END.length;
          break;
        }
        case 'data-crlf': {
          // Exactly CRLF after a chunk's data; anything else is a framing error at once.
          if (buf.length - at < 2) {
            if (buf[at] !== 0x0d) throw protocolError('HPE_INVALID_CHUNK_SIZE', 'a chunk does not end with CRLF');
            return this.keep(buf, at, 2, 'HPE_INVALID_CHUNK_SIZE', 'a chunk does not end with CRLF');
          }
          if (buf[at] !== 0x0d || buf[at + 1] !== 0x0a) throw protocolError('HPE_INVALID_CHUNK_SIZE', 'a chunk does not end with CRLF');
          at += 2;
          this.state = 'size';
          break;
        }
        case 'size':
        case 'trailers': {
          const end = buf.indexOf(CRLF, at);
          if (end === -1) return this.keep(buf, at, MAX_CHUNK_LINE_BYTES, 'HPE_INVALID_CHUNK_SIZE', 'a chunk-size line went past 4096 bytes');
          const line = buf.toString('latin1', at, end);
          at = end + CRLF.length;
          this.readLine(line);
          break;
        }
        case 'data':
        case 'length': {
          const n = Math.min(this.left, buf.length - at);
          this.left -= n;
          const part = buf.subarray(at, at + n);
          at += n;
          if (this.left === 0) this.state = this.state === 'data' ? 'data-crlf' : 'done';
          this.listener.body(part);
          break;
        }
        case 'close':
          this.listener.body(at === 0 ? buf : buf.subarray(at));
          at = buf.length;
          break;
      }
    }
    if (this.state === 'done' && !this.reported) {
      this.reported = true;
      // Bytes after the response's end, before any request asked for them: the socket cannot be trusted again.
      this.listener.end(this.keepAlive && at >= buf.length);
    }
  }

  /** Keeps an incomplete line or head for the next read, within `max` bytes. */
  private keep(buf: Buffer, at: number, max: number, code: string, message: string): void {
    if (buf.length - at > max) throw protocolError(code, message);
    this.pending = Buffer.from(buf.subarray(at));
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
    if (m === null) throw protocolError('HPE_INVALID_CONSTANT', 'the response does not start with an HTTP/1.x status line');
    const status = Number(m[1]);
    const headers: Record<string, string | string[]> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0 || /[\s]/.test(line.slice(0, colon))) throw protocolError('HPE_INVALID_HEADER_TOKEN', 'a response header line is malformed');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      const had = headers[name];
      headers[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
    }
    // Informational (100 Continue, 103 Early Hints): a final head follows.
    if (status >= 100 && status < 200 && status !== 101) return;
    const connection = String(headers.connection ?? '').toLowerCase();
    if (connection.includes('close') || m[0].startsWith('HTTP/1.0')) this.keepAlive = false;
    const te = headers['transfer-encoding'];
    const cl = headers['content-length'];
    this.listener.head(status, m[2] ?? '', headers);
    if (this.noBody || status === 204 || status === 304) return this.finish();
    if (te !== undefined) {
      if (Array.isArray(te) || te.toLowerCase() !== 'chunked')
        throw protocolError('HPE_INVALID_TRANSFER_ENCODING', 'the response uses a transfer encoding other than chunked');
      this.state = 'size';
    } else if (cl !== undefined) {
      if (Array.isArray(cl) || !/^\d{1,15}$/.test(cl)) throw protocolError('HPE_INVALID_CONTENT_LENGTH', 'the response Content-Length is not one whole number');
      this.left = Number(cl);
      if (this.left === 0) return this.finish();
      this.state = 'length';
    } else {
      this.keepAlive = false;
      this.state = 'close';
    }
  }

  private readLine(line: string): void {
    if (this.state === 'size') {
      const m = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
      if (m === null) throw protocolError('HPE_INVALID_CHUNK_SIZE', 'a chunk size is not hexadecimal');
      this.left = parseInt(m[1] as string, 16);
      this.state = this.left === 0 ? 'trailers' : 'data';
    } else if (line === '') this.finish();
  }

  private finish(): void {
    this.state = 'done';
  }
}
