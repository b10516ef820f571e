/**
 * The floor as its own process, so the held-load bench can pin it apart from
 * the stub as it pins `goodput sweep`: `node dist/bench/floor-process.js URL
 * STREAMS REQUESTS OUTPUT` runs one closed-loop level and prints its TTFT and
 * TPOT p50 (ms), failures and CPU as one JSON line.
 */
import { monotonicNs } from '../client/index.js';
import { floorChatBody, floorTpotMs, pct } from './bench-parts.js';
import { runFloorLevel } from './floor-client.js';

const [url, streams, requests, output] = process.argv.slice(2);
if (url === undefined || !(Number(streams) > 0) || !(Number(requests) > 0) || !(Number(output) > 0))
  throw new Error('usage: floor-process.js URL STREAMS REQUESTS OUTPUT_TOKENS');
const level = await runFloorLevel(url, {
  streams: Number(streams),
  requests: Number(requests),
  clock: monotonicNs,
  body: (i) => floorChatBody(`f${i} alpha beta gamma delta epsilon zeta eta theta`, Number(output)),
});
const ok = level.records.filter((r) => r.ok);
const ttft = ok.flatMap((r) => (r.firstTokenNs === null ? [] : [(r.firstTokenNs - r.sendNs) / 1e6]));
process.stdout.write(
  `${JSON.stringify({
    ttftP50: pct(ttft, 50),
    tpotP50: pct(
      ok.flatMap((r) => floorTpotMs(r) ?? []),
      50,
    ),
    failed: Number(requests) - ok.length,
    cpuPct: level.cpuPct,
  })}\n`,
);
