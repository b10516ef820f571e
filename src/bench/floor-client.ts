/**
 * The floor: the least a Node client can do to time a stream, to set goodput
 * beside. Raw TCP sockets (no HTTP library), one keep-alive connection per
 * stream, a hand-written request, and a byte scan of what comes back: the
 * instant of every read that carries a token event, the first one with content,
 * and the end (`[DONE]` then the chunked terminator). No JSON is parsed and no
 * record is built until the level is over. What it cannot do (errors, other
 * framings, usage, retries) is the price of being the floor.
 */
import { type Socket, connect } from 'node:net';

/** One request as the floor saw it; instants in ns on `clock`. */
export interface FloorRecord {
  id: string;
  /** The instant the request was meant to leave: the level's start, or when its slot freed. */
  targetNs: number;
  sendNs: number;
  /** `socket.write` returned: the request handed to the kernel. */
  writtenNs: number;
  firstTokenNs: number | null;
  lastTokenNs: number | null;
  /** Token events (one per SSE event with non-empty content). */
  tokens: number;
  ok: boolean;
}

export interface FloorLevel {
  records: FloorRecord[];
  /** This process's CPU over the level, % of one core. */
  cpuPct: number;
  startNs: number;
}

const TOKEN = Buffer.from('"content":"');
const QUOTE = 0x22;
const DONE = Buffer.from('data: [DONE]');
const TERMINATOR = Buffer.from('\r\n0\r\n\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const TAIL = 16;

/**
 * Token events in `buf` from `from`: `"content":"` not followed by `"` (the empty
 * role delta). The first `seen` bytes were scanned with the previous read: a
 * marker whose next byte lies there was counted then.
 */
function countTokens(buf: Buffer, from: number, seen: number): number {
  let n = 0;
  for (let at = buf.indexOf(TOKEN, from); at !== -1; at = buf.indexOf(TOKEN, at + TOKEN.length)) {
    const next = buf[at + TOKEN.length];
    if (next !== undefined && next !== QUOTE && at + TOKEN.length >= seen) n++;
  }
  return n;
}

/**
 * Runs a closed loop of `streams` connections sending `requests` requests in all
 * to `url` (chat completions), bodies from `body(i)`; resolves when all ended.
 * @throws Error when a connection fails or a response is not 200 (the floor does no error handling).
 */
export async function runFloorLevel(url: string, o: { streams: number; requests: number; body(i: number): string; clock(): number }): Promise<FloorLevel> {
  const { hostname, port } = new URL(url);
  const records: FloorRecord[] = [];
  let next = 0;
  // Every socket open before the level starts, as goodput opens its pool: no send pays a handshake.
  const sockets = await Promise.all(
    Array.from(
      { length: Math.min(o.streams, o.requests) },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const s = connect({ host: hostname, port: Number(port), noDelay: true });
          s.once('connect', () => resolve(s));
          s.once('error', reject);
        }),
    ),
  );
  const cpu0 = process.cpuUsage();
  const startNs = o.clock();

  const stream = (socket: Socket, slot: number) =>
    new Promise<void>((resolve, reject) => {
      let current: FloorRecord | null = null;
      let head = true;
      let done = false;
      let tail: Buffer = Buffer.alloc(0);
      let target = startNs;
      const sendNext = () => {
        if (next >= o.requests) {
          socket.end();
          return resolve();
        }
        const i = next++;
        const body = o.body(i);
        const id = `floor-${slot}-${i}`;
        const payload =
          `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
          `x-request-id: ${id}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        current = { id, targetNs: target, sendNs: o.clock(), writtenNs: 0, firstTokenNs: null, lastTokenNs: null, tokens: 0, ok: false };
        head = true;
        done = false;
        tail = Buffer.alloc(0);
        socket.write(payload);
        current.writtenNs = o.clock();
      };
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        const now = o.clock();
        const r = current;
        if (r === null) return;
        // Scan the last few bytes of the previous read with this one: a marker may straddle two reads.
        const seen = head ? 0 : tail.length;
        const buf = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
        let from = 0;
        if (head) {
          const end = buf.indexOf(HEAD_END);
          if (end === -1) {
            tail = buf;
            return;
          }
          if (!buf.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 200')) return reject(new Error(`floor: ${buf.subarray(0, 40).toString('latin1')}`));
          head = false;
          from = end + HEAD_END.length;
        }
        const n = countTokens(buf, from, seen);
        if (n > 0) {
          r.firstTokenNs ??= now;
          r.lastTokenNs = now;
          r.tokens += n;
        }
        if (!done && buf.indexOf(DONE, from) !== -1) done = true;
        if (done && buf.indexOf(TERMINATOR, from) !== -1) {
          r.ok = true;
          records.push(r);
          current = null;
          target = now;
          sendNext();
          return;
        }
        tail = buf.subarray(Math.max(0, buf.length - TAIL));
      });
      sendNext();
    });

  await Promise.all(sockets.map(stream));
  const cpu = process.cpuUsage(cpu0);
  const wallUs = (o.clock() - startNs) / 1e3;
  return { records, cpuPct: ((cpu.user + cpu.system) / wallUs) * 100, startNs };
}
