/**
 * Wall-clock accuracy of chat with images (the timing pass only, never npm test):
 * against the simulator in its own process, with no per-token prefill cost, two
 * images per request add exactly 2 × encoderMsPerImage to the time to first
 * token, and the server's prompt tokens carry 2 × 256 image tokens (audio: per second). The schedule
 * is slow on purpose, as in accuracy.timing.test.ts, so a loaded machine's ~1 ms
 * wake-up latency stays well inside 2 %.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runSweep } from './run-kinds.js';
import { wallClock } from '../test-support/wall-clock.js';

const PREFILL_MS = 200;
const ENCODER_MS = 150;
const AUDIO_MS_PER_S = 50;
let sim: SimProcess;

beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    String(PREFILL_MS),
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '10',
    '--decode-ms-per-extra-seq',
    '0',
    '--encoder-ms-per-image',
    String(ENCODER_MS),
    '--encoder-ms-per-audio-second',
    String(AUDIO_MS_PER_S),
    '--no-prefix-caching',
  ]);
});
afterAll(async () => {
  await sim.stop();
});

describe("TTFT with images against the simulator's encoder cost", () => {
  it('2 images of 512×512: TTFT p50 grows by 2 × the encoder cost, within 2 %, at concurrency 1 and 8', async () => {
    const base = { url: sim.url, levels: [1, 8], promptTokens: 32, outputTokens: 16, requestsPerLevel: 16, warmup: 1, serverMetrics: false };
    const plain = await runSweep(base);
    const images = await runSweep({ ...base, images: { perRequest: 2, width: 512, height: 512, format: 'png' } });
    for (const [i, level] of images.levels.entries()) {
      const without = plain.levels[i];
      expect(level.failed).toBe(0);
      expect(level.promptTokens.mean).toBe((without?.promptTokens.mean ?? NaN) + 2 * 256);
      const ttft = level.ttftMs?.p50 ?? NaN;
      const expected = PREFILL_MS + 2 * ENCODER_MS;
      wallClock(Math.abs(ttft - expected) / expected, `TTFT p50 ${ttft} ms with images at c=${level.concurrency}`).toBeLessThan(0.02);
      wallClock(Math.abs((without?.ttftMs?.p50 ?? NaN) - PREFILL_MS) / PREFILL_MS, `TTFT p50 without images at c=${level.concurrency}`).toBeLessThan(0.02);
    }
  });

  // At concurrency 8, 16 images are fetched at once from an image server that shares goodput's event loop with
  // 8 streams: that wait is real time to first token, so there the fetch is only required to be in it.
  it("2 JPEGs by URL: the simulator's fetch from goodput's image server lands in TTFT on top of the encoder cost (one request at a time: within 2 %)", async () => {
    const r = await runSweep({
      url: sim.url,
      levels: [1, 8],
      promptTokens: 32,
      outputTokens: 16,
      requestsPerLevel: 16,
      warmup: 1,
      serverMetrics: false,
      images: { perRequest: 2, width: 512, height: 512, format: 'jpeg', delivery: 'url' },
    });
    for (const level of r.levels) {
      expect(level.failed).toBe(0);
      expect(level.promptTokens.mean).toBe((level.promptTokens.sent ?? NaN) + 2 * 256);
      const ttft = level.ttftMs?.p50 ?? NaN;
      const expected = PREFILL_MS + 2 * ENCODER_MS;
      expect(ttft, `TTFT p50 ${ttft} ms by URL at c=${level.concurrency}`).toBeGreaterThanOrEqual(expected);
      if (level.concurrency === 1) wallClock((ttft - expected) / expected, `TTFT p50 ${ttft} ms by URL at c=1`).toBeLessThan(0.02);
    }
  });

  it('4 s of audio: TTFT p50 grows by 4 × the encoder cost per second, within 2 %, and prompt tokens by 4 × 25', async () => {
    const r = await runSweep({
      url: sim.url,
      levels: [1, 8],
      promptTokens: 32,
      outputTokens: 16,
      requestsPerLevel: 16,
      warmup: 1,
      serverMetrics: false,
      audio: { seconds: 4, format: 'wav' },
    });
    for (const level of r.levels) {
      expect(level.failed).toBe(0);
      expect(level.promptTokens.mean).toBe((level.promptTokens.sent ?? NaN) + 100);
      const ttft = level.ttftMs?.p50 ?? NaN;
      const expected = PREFILL_MS + 4 * AUDIO_MS_PER_S;
      wallClock(Math.abs(ttft - expected) / expected, `TTFT p50 ${ttft} ms with audio at c=${level.concurrency}`).toBeLessThan(0.02);
    }
  });
});
