/**
 * Another local process holding 400 connections to goodput's image server, each
 * sending its headers a byte at a time and reconnecting when closed, does not
 * fail a single request of a level: the simulator fetches every image by URL.
 */
import { createServer } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimulator } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { patient } from '../test-support/patience.js';

const SLOW = 400;
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, images: { encoderMsPerImage: 0 } });
});
afterAll(async () => {
  await sim.close();
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Keeps `n` slow-header connections to `port` open (reopening each one closed) until stopped; counts those that got through. */
function holdSlowConnections(port: number, n: number): { opened: () => number; stop: () => void } {
  let stopped = false;
  let opened = 0;
  const sockets = new Set<Socket>();
  const one = () => {
    if (stopped) return;
    const s = connect(port, '127.0.0.1');
    sockets.add(s);
    let drip: NodeJS.Timeout | null = null;
    s.on('connect', () => {
      opened++;
      s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      drip = setInterval(() => s.write('a'), 500);
    });
    s.on('error', () => {});
    s.on('close', () => {
      if (drip !== null) clearInterval(drip);
      sockets.delete(s);
      // Refused (not listening yet) or closed by the server: try again shortly, as a patient attacker would.
      if (!stopped) setTimeout(one, 10).unref();
    });
  };
  for (let i = 0; i < n; i++) one();
  return {
    opened: () => opened,
    stop: () => {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

describe('the image server under 400 slow connections', () => {
  it(
    'fails no request of a level',
    async () => {
      const port = await freePort();
      const attack = holdSlowConnections(port, SLOW);
      try {
        const result = await runSweep({
          url: sim.url,
          levels: [16],
          promptTokens: 16,
          outputTokens: 8,
          requestsPerLevel: 16,
          warmup: 0,
          serverMetrics: false,
          clientBudgetMs: 1000,
          imageBaseUrl: `http://127.0.0.1:${port}`,
          images: { perRequest: 1, width: 64, height: 64, format: 'png', delivery: 'url' },
        });
        expect(attack.opened()).toBeGreaterThanOrEqual(SLOW);
        const level = result.levels[0];
        expect(level?.failureExamples).toEqual([]);
        expect(level).toMatchObject({ requests: 16, succeeded: 16, failed: 0 });
        // The level says what its image server had to close, and that a failed fetch would have been the image server's.
        expect(result.warnings.find((w) => w.code === 'image-server-contended')?.message).toMatch(
          /^concurrency 16: goodput's image server closed \d+ connections that sent no request within 2 s or made way for others: another process on this machine may be holding it$/,
        );
      } finally {
        attack.stop();
      }
    },
    patient(60_000),
  );
});
