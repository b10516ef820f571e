/**
 * The network round trip to the server, measured without asking it anything: a
 * TCP connect completes after one SYN / SYN-ACK exchange, so its duration is one
 * round trip (plus the kernel's accept). The median of a few connects, each
 * closed at once, bounded in count and time.
 */
import { connect } from 'node:net';

function connectMs(host: string, port: number, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host, port, noDelay: true });
    const done = (ms: number | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ms);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.once('connect', () => done(performance.now() - started));
    socket.once('error', () => done(null));
  });
}

/**
 * Median TCP connect time to the host and port of `url`, ms; null when no connect succeeded.
 * @param count connects to time (default 5), one after another.
 * @param timeoutMs limit per connect (default 1000 ms).
 */
export async function measureRttMs(url: string, count = 5, timeoutMs = 1000): Promise<number | null> {
  const u = new URL(url);
  const port = u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const ms = await connectMs(host, port, timeoutMs);
    if (ms !== null) times.push(ms);
  }
  if (times.length === 0) return null;
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  return times.length % 2 === 1 ? (times[mid] as number) : ((times[mid - 1] as number) + (times[mid] as number)) / 2;
}
