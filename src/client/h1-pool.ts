/**
 * The measured send path: a minimal HTTP/1.1 keep-alive pool over `net`/`tls`,
 * one request per socket at a time, written in one `socket.write` the moment a
 * socket is free (undici defers every write on a reused socket to the next
 * check phase, so a burst of C requests was built in full before the first was
 * written). It drives the same handler API as undici (onRequestStart …
 * onResponseError), so the stream handler, its limits and outcomes are the same;
 * the errors carry undici's codes for the same failures (connect, headers and
 * body timeouts, a socket closed mid-response). Probes and everything else keep
 * undici.
 */
import { type Socket, connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { H1Response, protocolError } from './h1-response.js';

/** Set on an error of a request written on a reused socket that read no byte for it (the caller may retry once). */
export const UNANSWERED_ON_REUSED = Symbol('unanswered on a reused socket');

/** The handler calls a request gets: undici's controller API, plus when its last byte was written. */
export interface H1Handler {
  onRequestStart(controller: H1Controller, context: object): void;
  onResponseStart(controller: H1Controller, status: number, headers: Record<string, string | string[]>, statusText: string): void;
  onResponseData(controller: H1Controller, chunk: Buffer): void;
  onResponseEnd(controller: H1Controller, trailers: Record<string, string>): void;
  onResponseError(controller: H1Controller | null, err: Error): void;
  onWritten?(): void;
}

export interface H1Controller {
  abort(reason: Error): void;
  readonly aborted: boolean;
}

export interface H1PoolOptions {
  connections: number;
  connectMs: number;
  /** From the request written to its response head; 0: none. */
  headersMs: number;
  /** Longest silence within the body; 0: none. */
  idleMs: number;
  /** Certificates to trust instead of Node's bundled CAs (PEM); tests use it for a self-signed loopback server. */
  ca?: string;
}

/** One request: its whole wire form, head and body. */
export interface H1Request {
  method: 'GET' | 'POST';
  /** The whole request; bytes when built ahead, so the write pays no encoding. */
  wire: string | Buffer;
}

/**
 * The head of a request: `METHOD path HTTP/1.1`, host, `fixed` (header lines
 * computed once per client, each ending CRLF), `extra` lines, the length.
 * @throws TypeError when a header line holds a CR, LF or NUL (a header injection).
 */
export function requestHead(method: 'GET' | 'POST', path: string, host: string, lines: string, bodyBytes: number): string {
  return `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n${lines}${bodyBytes > 0 || method === 'POST' ? `content-length: ${bodyBytes}\r\n` : ''}\r\n`;
}

/** Header lines for `headers`, each `name: value\r\n`. @throws TypeError on a CR, LF or NUL in a name or value. */
export function headerLines(headers: Record<string, string>): string {
  let out = '';
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n\0]/.test(name) || /[\r\n\0]/.test(value) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new TypeError(`header ${JSON.stringify(name)} holds a character a header cannot carry`);
    out += `${name}: ${value}\r\n`;
  }
  return out;
}

const socketError = (message: string) => protocolError('UND_ERR_SOCKET', message);

class Job implements H1Controller {
  aborted = false;
  conn: Conn | null = null;
  done = false;
  constructor(
    readonly req: H1Request,
    readonly handler: H1Handler,
    private readonly pool: H1Pool,
  ) {}

  abort(reason: Error): void {
    if (this.aborted || this.done) return;
    this.aborted = true;
    this.pool.drop(this, reason);
  }
}

class Conn {
  job: Job | null = null;
  uses = 0;
  ready = false;
  dead = false;
  private response: H1Response | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (performance.now() ms); it may fire before the deadline, never after. */
  private timerAt = 0;
  /** The wait in force (for the response head, or between body bytes), pushed on by every read; 0: none. */
  private deadline = 0;
  private waitMs = 0;
  private waitFor: 'headers' | 'body' = 'headers';
  private bytesAtWrite = 0;
  private reused = false;
  private unrefd = true;
  /** The socket's own error, or why this connection was failed: what a request waiting for it hears. */
  error: Error | null = null;

  constructor(
    readonly socket: Socket,
    private readonly pool: H1Pool,
    private readonly o: H1PoolOptions,
  ) {
    socket.on('data', this.onData);
    socket.on('error', (err) => {
      this.error ??= err;
    });
    socket.on('close', this.onClose);
    socket.setNoDelay(true);
  }

  /** Writes `job` on this socket (free, connected). */
  start(job: Job): void {
    this.job = job;
    job.conn = this;
    // Only an idle socket is unref'd (so it never keeps the process alive): one that goes straight to its next request stays as it is.
    if (this.unrefd) {
      this.socket.ref();
      this.unrefd = false;
    }
    job.handler.onRequestStart(job, {});
    if (job.aborted || this.dead) return;
    this.reused = this.uses > 0;
    if (this.reused) this.pool.reuses++;
    this.uses++;
    this.bytesAtWrite = this.socket.bytesRead;
    this.response = new H1Response(this.listener, false);
    this.socket.write(job.req.wire);
    job.handler.onWritten?.();
    this.arm(this.o.headersMs, 'headers');
  }

  /**
   * Starts a wait of `ms` (0: none). One lazy timer serves every wait of the connection: a read only moves the
   * deadline, and the timer, when it fires early, sleeps again for what is left (a timer reset on every read of
   * every stream costs the loop more than the reads themselves).
   */
  private arm(ms: number, waitFor: 'headers' | 'body'): void {
    this.waitMs = ms;
    this.waitFor = waitFor;
    this.deadline = ms > 0 ? performance.now() + ms : 0;
    if (this.deadline === 0) return;
    this.timer?.ref();
    // First asleep for the shorter of the two waits, so the body's wait that follows the head finds it due in time.
    if (this.timer === null || this.timerAt > this.deadline) this.sleep(Math.min(ms, this.o.idleMs > 0 ? this.o.idleMs : ms));
  }

  private sleep(ms: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerAt = performance.now() + ms;
    this.timer = setTimeout(this.onTimer, ms);
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    if (this.deadline === 0) return;
    const left = this.deadline - performance.now();
    if (left > 0) return this.sleep(Math.ceil(left));
    const ms = this.waitMs;
    this.fail(
      this.waitFor === 'headers'
        ? protocolError('UND_ERR_HEADERS_TIMEOUT', `no response headers within ${ms} ms`)
        : protocolError('UND_ERR_BODY_TIMEOUT', `no body bytes for ${ms} ms`),
    );
  };

  private stopTimer(): void {
    this.deadline = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly listener = {
    head: (status: number, statusText: string, headers: Record<string, string | string[]>) => {
      const job = this.job;
      if (job === null) return;
      this.arm(this.o.idleMs, 'body');
      job.handler.onResponseStart(job, status, headers, statusText);
    },
    body: (chunk: Buffer) => {
      const job = this.job;
      if (job !== null && chunk.length > 0) job.handler.onResponseData(job, chunk);
    },
    end: (keepAlive: boolean) => {
      const job = this.job;
      if (job === null) return;
      this.finish(job);
      job.handler.onResponseEnd(job, {});
      if (keepAlive && !this.pool.closesAfterResponse) return this.pool.release(this);
      this.destroy();
      this.pool.refill();
    },
  };

  private readonly onData = (chunk: Buffer): void => {
    if (this.job === null || this.response === null) {
      // Bytes no request asked for, on an idle socket: it cannot be trusted with the next one.
      return this.destroy();
    }
    if (this.deadline !== 0) this.deadline = performance.now() + this.waitMs;
    try {
      this.response.push(chunk);
    } catch (err) {
      this.fail(err as Error);
    }
  };

  private readonly onClose = (): void => {
    this.dead = true;
    this.stopTimer();
    const job = this.job;
    if (job !== null && this.response?.untilClose === true && this.error === null) {
      // A body framed by the close: the close is its end.
      this.finish(job);
      job.handler.onResponseEnd(job, {});
    } else if (job !== null) this.fail(this.error ?? socketError('other side closed'));
    // A connection that never came up fails the oldest request waiting (with the socket's own error) before another is tried.
    if (!this.ready) this.pool.failQueued(this);
    this.pool.remove(this);
  };

  /** Fails the current request (or the ones waiting for this connection) and closes the socket. */
  fail(err: Error): void {
    this.error ??= err;
    const job = this.job;
    this.destroy();
    if (job === null || job.done) return;
    if (this.reused && this.socket.bytesRead === this.bytesAtWrite) {
      Object.assign(err, { [UNANSWERED_ON_REUSED]: true });
      this.pool.noteUnansweredReuse();
    }
    this.finish(job);
    job.handler.onResponseError(job, err);
  }

  private finish(job: Job): void {
    job.done = true;
    this.job = null;
    this.response = null;
    // The timer stays for the connection's next request (it finds no deadline if it fires first).
    this.deadline = 0;
  }

  /** Detaches the current request (aborted) and closes the socket. */
  detach(): void {
    const job = this.job;
    if (job !== null) this.finish(job);
    this.destroy();
  }

  destroy(): void {
    this.stopTimer();
    if (this.dead) return;
    this.dead = true;
    this.socket.destroy();
    this.pool.remove(this);
  }

  idle(): void {
    this.socket.unref();
    this.unrefd = true;
    this.timer?.unref();
  }
}

/** A keep-alive pool of HTTP/1.1 connections to one origin. */
export class H1Pool {
  private readonly idle: Conn[] = [];
  private readonly all = new Set<Conn>();
  private readonly queue: Job[] = [];
  private readonly host: string;
  private readonly port: number;
  private readonly tls: boolean;
  private closed = false;
  /** Requests written on a socket that had answered before, and how many of them the server had already closed. */
  reuses = 0;
  private unansweredReuses = 0;

  /** The `host` header value of this origin. */
  readonly hostHeader: string;

  constructor(
    origin: string,
    private readonly o: H1PoolOptions,
  ) {
    const url = new URL(origin);
    this.tls = url.protocol === 'https:';
    this.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = Number(url.port || (this.tls ? 443 : 80));
    this.hostHeader = url.host;
  }

  /** Sends `req`; every outcome reaches `handler` (never a throw). */
  dispatch(req: H1Request, handler: H1Handler): void {
    const job = new Job(req, handler, this);
    if (this.closed) return handler.onResponseError(null, socketError('the client is closed'));
    const conn = this.idle.pop();
    if (conn !== undefined) return conn.start(job);
    this.queue.push(job);
    if (this.all.size < this.o.connections) this.open();
  }

  /** Opens sockets until `n` are open or opening (at most the pool's size); resolves with how many connected. */
  async warm(n: number): Promise<number> {
    const want = Math.min(n, this.o.connections) - this.all.size;
    const opened = Array.from({ length: Math.max(0, want) }, () => this.open());
    const ok = await Promise.all(
      opened.map(
        (c) =>
          new Promise<boolean>((resolve) => {
            if (c.ready) return resolve(true);
            c.socket.once(this.tls ? 'secureConnect' : 'connect', () => resolve(true));
            c.socket.once('close', () => resolve(false));
          }),
      ),
    );
    return ok.filter(Boolean).length;
  }

  private open(): Conn {
    const socket = this.tls
      ? tlsConnect({
          host: this.host,
          port: this.port,
          servername: /^[\d.:]+$/.test(this.host) ? undefined : this.host,
          ALPNProtocols: ['http/1.1'],
          ...(this.o.ca === undefined ? {} : { ca: this.o.ca }),
        })
      : netConnect({ host: this.host, port: this.port });
    const conn = new Conn(socket, this, this.o);
    this.all.add(conn);
    const timer = setTimeout(() => conn.fail(protocolError('UND_ERR_CONNECT_TIMEOUT', `no connection within ${this.o.connectMs} ms`)), this.o.connectMs);
    socket.once(this.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      conn.ready = true;
      this.release(conn);
    });
    socket.once('close', () => clearTimeout(timer));
    return conn;
  }

  /**
   * Whether the server closes each connection after a response while its headers promise keep-alive (llama.cpp's
   * streams do): learnt when at least two reuses, and half of them, found the socket closed before any byte. From
   * then on a socket is not reused (each request pays the connect the server imposes, in its own timings) and is
   * replaced as its response ends, instead of every other request failing once and being sent again.
   */
  get closesAfterResponse(): boolean {
    return this.unansweredReuses >= 2 && this.unansweredReuses * 2 >= this.reuses;
  }

  noteUnansweredReuse(): void {
    this.unansweredReuses++;
    // Sockets that answered before and wait idle are closed by now too.
    if (this.closesAfterResponse) for (const c of [...this.idle]) if (c.uses > 0) c.destroy();
  }

  /** Opens a replacement for a connection that closed after its response, so the next request need not wait for it. */
  refill(): void {
    if (!this.closed && this.all.size < this.o.connections) this.open();
  }

  /** A connection failed before it connected: the oldest waiting request hears why. */
  failQueued(conn: Conn): void {
    const job = this.queue.shift();
    const err = conn.error ?? socketError('the connection closed before it was established');
    if (job !== undefined) {
      job.done = true;
      job.handler.onResponseError(null, err);
    }
  }

  /** A free connection takes the next waiting request or waits idle. */
  release(conn: Conn): void {
    if (conn.dead || this.closed) return;
    const job = this.queue.shift();
    if (job !== undefined) return conn.start(job);
    conn.idle();
    this.idle.push(conn);
  }

  remove(conn: Conn): void {
    if (!this.all.delete(conn)) return;
    const i = this.idle.indexOf(conn);
    if (i !== -1) this.idle.splice(i, 1);
    if (this.queue.length > this.connecting() && this.all.size < this.o.connections && !this.closed) this.open();
  }

  private connecting(): number {
    let n = 0;
    for (const c of this.all) if (!c.ready) n++;
    return n;
  }

  /** An aborted request: out of the queue, or its socket closed (a response half read cannot be resumed). */
  drop(job: Job, reason: Error): void {
    const i = this.queue.indexOf(job);
    if (i !== -1) this.queue.splice(i, 1);
    const conn = job.conn;
    const wasDone = job.done;
    job.conn = null;
    if (conn !== null && conn.job === job) conn.detach();
    if (!wasDone) {
      job.done = true;
      job.handler.onResponseError(job, reason);
    }
  }

  /** Closes every socket; requests in flight or waiting fail (their handlers know the client is closing). */
  close(): void {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      job.done = true;
      job.handler.onResponseError(null, socketError('the client is closed'));
    }
    for (const c of [...this.all]) c.fail(socketError('the client is closed'));
  }
}
