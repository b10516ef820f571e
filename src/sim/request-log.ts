/**
 * `goodput sim --request-log FILE`: the server's own account of each request,
 * one JSON line per request, keyed by the client's request id (`X-Request-Id`),
 * so a client's records can be joined with what the server did. Instants are
 * epoch milliseconds on the shared monotonic base (performance.timeOrigin +
 * performance.now(), µs digits), the same base any process on the machine can
 * put its own clock on:
 *
 * - `arrivalMs`: the request was read (its first read: headers parsed);
 * - `firstWriteMs`: the write of the first token returned;
 * - `lastWriteMs`: the last write returned (the end of the stream).
 *
 * Lines are buffered and written off the hot path (every 200 ms and on close).
 */
import { createWriteStream, type WriteStream } from 'node:fs';

/** One request as the server saw it. Instants in epoch ms (shared monotonic base), null when it never happened. */
export interface RequestLogEntry {
  /** The request's `X-Request-Id`, or null when it sent none. */
  id: string | null;
  arrivalMs: number;
  firstWriteMs: number | null;
  lastWriteMs: number | null;
  /** Output tokens written. */
  outputTokens: number;
  /** How it ended: ran to its finish, the client went away, or an injected fault cut it. */
  end: 'complete' | 'cancelled' | 'fault';
}

const FLUSH_EVERY_MS = 200;

/** Epoch ms of a performance.now() instant. */
export const epochMs = (nowMs: number): number => Math.round((performance.timeOrigin + nowMs) * 1000) / 1000;

/** An append-only JSONL request log. */
export class RequestLog {
  private lines: string[] = [];
  private readonly out: WriteStream;
  private readonly timer: NodeJS.Timeout;
  private failure: Error | null = null;

  constructor(path: string) {
    this.out = createWriteStream(path, { flags: 'w' });
    this.out.on('error', (err) => {
      this.failure = err;
    });
    this.timer = setInterval(() => this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Resolves once the file is open (rejects with its error), so a bad path fails before the server listens. */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.out.once('ready', () => resolve());
      this.out.once('error', reject);
    });
  }

  add(entry: RequestLogEntry): void {
    this.lines.push(JSON.stringify(entry));
  }

  private flush(): void {
    if (this.lines.length === 0 || this.failure) return;
    this.out.write(`${this.lines.join('\n')}\n`);
    this.lines = [];
  }

  /** Writes what is buffered and closes the file. */
  close(): Promise<void> {
    clearInterval(this.timer);
    this.flush();
    return new Promise((resolve) => {
      if (this.out.closed) return resolve();
      this.out.end(() => resolve());
    });
  }
}
