/**
 * The independent stub the held-load bench measures clients against: not the
 * project's simulator, nothing of goodput's server code, raw TCP with a small
 * HTTP/1.1 reader, so whatever a client does is measured against a server
 * that shares none of its code. Every streamed chat request gets its first
 * token `--first-token-ms` after its body was read, then one token per event
 * every `--cadence-ms`, `--tokens` in all, on absolute deadlines (no drift).
 * It keeps its own clock: per request, when its body was read, how many of its
 * requests were open then (itself included), when its first and last token
 * were written. `GET /stub/log` answers them as JSON and starts a new log.
 *
 * Run as a process: `node dist/bench/stub-server.js --first-token-ms 20
 * --cadence-ms 20 --tokens 256`; it prints `listening URL` once ready.
 */
import { type Socket, createServer } from 'node:net';
import { parseArgs } from 'node:util';

/** One request as the stub saw it; instants in ms on its own monotonic clock. */
export interface StubRecord {
  arriveMs: number;
  /** Requests open when this one's body was read, this one included. */
  inFlight: number;
  firstMs: number | null;
  lastMs: number | null;
  tokens: number;
  /** When its last byte was written (or its connection was found closed); null while open. */
  endMs: number | null;
  /** Its x-request-id header, when it had one. */
  id: string | null;
}

const now = () => performance.now();
const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;
const MAX_BODY = 1024 * 1024;

/** One HTTP/1.1 chunk holding `text`. */
const chunk = (text: string): Buffer => {
  const body = Buffer.from(text);
  return Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')]);
};
const event = (delta: object, finish: string | null, extra = '') =>
  chunk(
    `data: {"id":"stub","object":"chat.completion.chunk","created":0,"model":"stub","choices":[{"index":0,"delta":${JSON.stringify(delta)},"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]${extra}}\n\n`,
  );

const STREAM_HEAD = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\nconnection: keep-alive\r\n\r\n');
const ROLE = event({ role: 'assistant', content: '' }, null);
const TOKEN = event({ content: ' tok' }, null);
const END = Buffer.concat([chunk('data: [DONE]\n\n'), Buffer.from('0\r\n\r\n')]);

function plain(socket: Socket, status: string, body: string): void {
  socket.write(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`);
}

interface Opts {
  firstTokenMs: number;
  cadenceMs: number;
  tokens: number;
}

/** Deadlines due, earliest first (a binary heap). */
const due: Array<{ at: number; fire(): void }> = [];
function push(at: number, fire: () => void): void {
  due.push({ at, fire });
  for (let i = due.length - 1; i > 0;) {
    const up = (i - 1) >> 1;
    if ((due[up] as { at: number }).at <= at) break;
    [due[i], due[up]] = [due[up] as (typeof due)[0], due[i] as (typeof due)[0]];
    i = up;
  }
  if (!spinning) {
    spinning = true;
    setImmediate(spin);
  }
}
function pop(): (typeof due)[0] | undefined {
  const top = due[0];
  const last = due.pop();
  if (due.length > 0 && last !== undefined) {
    due[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < due.length && (due[l] as typeof last).at < (due[m] as typeof last).at) m = l;
      if (r < due.length && (due[r] as typeof last).at < (due[m] as typeof last).at) m = r;
      if (m === i) break;
      [due[i], due[m]] = [due[m] as typeof last, due[i] as typeof last];
      i = m;
    }
  }
  return top;
}
/**
 * Fires what is due, then lets the loop read sockets, and again: the stub spins
 * on its own core while it has deadlines, so an answer ends when it is due and
 * not in the batch of Node's next 1 ms timer tick (which would end hundreds of
 * a burst's streams at once and count their replacements as missing).
 */
let spinning = false;
function spin(): void {
  const t = now();
  while (due.length > 0 && (due[0] as { at: number }).at <= t) pop()?.fire();
  if (due.length > 0) setImmediate(spin);
  else spinning = false;
}

/** Streams one answer on `socket` on its deadlines; `done` when the last byte is written or the socket closed. */
function stream(socket: Socket, o: Opts, rec: StubRecord, usage: boolean, done: () => void): void {
  socket.write(STREAM_HEAD);
  socket.write(ROLE);
  let sent = 0;
  const tick = () => {
    if (socket.destroyed) return done();
    const t = now();
    if (sent === 0) rec.firstMs = t;
    rec.lastMs = t;
    socket.write(TOKEN);
    sent++;
    rec.tokens = sent;
    if (sent < o.tokens) return push(rec.arriveMs + o.firstTokenMs + sent * o.cadenceMs, tick);
    const tail = usage ? `,"usage":{"prompt_tokens":16,"completion_tokens":${o.tokens},"total_tokens":${o.tokens + 16}}` : '';
    socket.write(event({}, 'length', tail));
    socket.write(END);
    done();
  };
  push(rec.arriveMs + o.firstTokenMs, tick);
}

/** Starts the stub on `port` (0: any) of 127.0.0.1; resolves with its URL. */
export function startStub(o: Opts, port = 0): Promise<string> {
  let log: StubRecord[] = [];
  let open = 0;
  const server = createServer({ noDelay: true }, (socket) => {
    let buf: Buffer = Buffer.alloc(0);
    let busy = false;
    const serve = () => {
      while (!busy) {
        const headEnd = buf.indexOf(HEAD_END);
        if (headEnd === -1) {
          if (buf.length > MAX_HEAD) socket.destroy();
          return;
        }
        const head = buf.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (length > MAX_BODY) return void socket.destroy();
        if (buf.length < headEnd + 4 + length) return;
        const body = buf.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
        buf = buf.subarray(headEnd + 4 + length);
        const [method, path] = head.split(' ', 2);
        if (method === 'GET' && path === '/stub/log') {
          plain(socket, '200 OK', JSON.stringify({ timeOrigin: performance.timeOrigin, log }));
          log = [];
        } else if (method === 'GET' && path === '/v1/models') {
          plain(socket, '200 OK', '{"object":"list","data":[{"id":"stub","object":"model","owned_by":"stub"}]}');
        } else if (method === 'POST' && path === '/v1/chat/completions' && /"stream"\s*:\s*true/.test(body)) {
          open++;
          const rec: StubRecord = {
            arriveMs: now(),
            inFlight: open,
            firstMs: null,
            lastMs: null,
            tokens: 0,
            endMs: null,
            id: /\r\nx-request-id:\s*(\S+)/i.exec(head)?.[1] ?? null,
          };
          log.push(rec);
          busy = true;
          stream(socket, o, rec, /"include_usage"\s*:\s*true/.test(body), () => {
            open--;
            rec.endMs = now();
            busy = false;
            if (!socket.destroyed) serve();
          });
        } else plain(socket, '404 Not Found', '{"error":{"message":"not served by the stub"}}');
      }
    };
    socket.on('data', (d: Buffer) => {
      buf = buf.length === 0 ? d : Buffer.concat([buf, d]);
      serve();
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => {
      const a = server.address();
      resolve(`http://127.0.0.1:${typeof a === 'object' && a !== null ? a.port : port}`);
    }),
  );
}

if (process.argv[1]?.endsWith('stub-server.js')) {
  const { values } = parseArgs({
    options: {
      'first-token-ms': { type: 'string', default: '20' },
      'cadence-ms': { type: 'string', default: '20' },
      tokens: { type: 'string', default: '256' },
    },
  });
  const url = await startStub({ firstTokenMs: Number(values['first-token-ms']), cadenceMs: Number(values['cadence-ms']), tokens: Number(values.tokens) });
  process.stdout.write(`listening ${url}\n`);
}
