/**
 * Chat with image inputs against the simulator over real HTTP: the prompt tokens
 * it counts per request, the images each body carried (byte-identical on a
 * rerun with the same seed), what the level records, and bad input refused.
 */
import { createHash } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimulator } from '../sim/index.js';
import { SweepError } from './errors.js';
import { runSweep } from './run-kinds.js';
import { IMAGE_POOL_BYTES, imagePool, imagesOf } from './image-pool.js';

let sim: SimServer;
let proxyUrl = '';
let close = () => {};
/** sha256 of every image_url sent, one list per chat request, in arrival order. */
const sent: string[][] = [];
/** Every image_url sent that is not a data URL, as it was sent. */
const sentUrls: string[] = [];
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  sim = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, images: { encoderMsPerImage: 0 } });
  // A loopback proxy that keeps what each chat body carried and forwards it unchanged.
  const target = new URL(sim.url);
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url === '/v1/chat/completions') {
        const parsed = JSON.parse(body.toString('utf8')) as { messages: Array<{ content: unknown }> };
        const last = parsed.messages[parsed.messages.length - 1]?.content;
        const urls = Array.isArray(last)
          ? last.flatMap((p: { type: string; image_url?: { url: string } }) => (p.type === 'image_url' && p.image_url ? [p.image_url.url] : []))
          : [];
        sent.push(urls.map(sha));
        sentUrls.push(...urls.filter((u) => !u.startsWith('data:')));
      }
      const fwd = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  close = () => proxy.close();
});
afterAll(async () => {
  close();
  await sim.close();
});

const spec = () => ({
  url: proxyUrl,
  levels: [1, 2],
  promptTokens: 16,
  outputTokens: 8,
  requestsPerLevel: 4,
  warmup: 1,
  serverMetrics: false,
  images: { perRequest: 2, width: 512, height: 512, format: 'png' as const },
});

describe('a chat sweep with 2 images of 512×512 per request', () => {
  it("counts 2 × 256 image tokens into every request's prompt tokens and records the images on each level", async () => {
    sent.length = 0;
    const result = await runSweep(spec());
    expect(result.levels).toHaveLength(2);
    for (const level of result.levels) {
      expect(level.failed).toBe(0);
      expect(level.images).toEqual({ perRequest: 2, width: 512, height: 512, format: 'png', delivery: 'data' });
      // The simulator counts one token per word of text and ceil(512/32)² = 256 per image.
      expect(level.promptTokens.sent).toBe(16);
      expect(level.promptTokens.mean).toBe(16 + 2 * 256);
    }
    const chat = sent.filter((s) => s.length > 0);
    expect(chat).toHaveLength(2 * (1 + 4));
    expect(chat.every((s) => s.length === 2)).toBe(true);
    // Every image of the run is its own: no engine-side image cache can serve one.
    expect(new Set(chat.flat()).size).toBe(2 * 2 * (1 + 4));
  });

  it('sends byte-identical images on a rerun with the same seed, and others with another seed', async () => {
    sent.length = 0;
    await runSweep(spec());
    const first = sent.flat().sort();
    sent.length = 0;
    await runSweep(spec());
    expect(sent.flat().sort()).toEqual(first);
    sent.length = 0;
    await runSweep({ ...spec(), seed: 7 });
    expect(sent.flat().filter((h) => first.includes(h))).toEqual([]);
  });
});

describe('a chat sweep with images as JPEG and by URL', () => {
  it('counts the same prompt tokens by URL as inline, the simulator fetching every image once from our image server', async () => {
    const jpeg = { perRequest: 2, width: 512, height: 512, format: 'jpeg' as const };
    const inline = await runSweep({ ...spec(), images: { ...jpeg, delivery: 'data' } });
    sentUrls.length = 0;
    const fetched0 = sim.stats().imagesFetched;
    const byUrl = await runSweep({ ...spec(), images: { ...jpeg, delivery: 'url' } });
    for (const [i, level] of byUrl.levels.entries()) {
      expect(level.failed).toBe(0);
      expect(level.images).toEqual({ ...jpeg, delivery: 'url' });
      expect(level.promptTokens.mean).toBe(16 + 2 * 256);
      expect(level.promptTokens.mean).toBe(inline.levels[i]?.promptTokens.mean);
    }
    // Every request named two URLs under one secret prefix on loopback, and the simulator fetched each of them.
    expect(sentUrls).toHaveLength(2 * 2 * (1 + 4));
    const prefix = /^(http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32})\/\d+\.jpg$/.exec(sentUrls[0] as string)?.[1];
    expect(prefix).toBeDefined();
    expect(sentUrls.every((u) => u.startsWith(`${prefix as string}/`))).toBe(true);
    expect(new Set(sentUrls).size).toBe(sentUrls.length);
    expect(sim.stats().imagesFetched - fetched0).toBe(sentUrls.length);
    // The image server is closed with the sweep.
    await expect(fetch(sentUrls[0] as string)).rejects.toThrow();
  });

  it('closes its image server when the sweep is stopped (Ctrl-C) mid-level, at the address it was given', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    const stop = new AbortController();
    let servedAt = '';
    sentUrls.length = 0;
    const result = await runSweep(
      { ...spec(), levels: [1, 2], imageBaseUrl: `http://127.0.0.1:${port}`, images: { perRequest: 1, width: 64, height: 64, format: 'png', delivery: 'url' } },
      {
        signal: stop.signal,
        onEvent: (e) => {
          if (e.kind !== 'request' || stop.signal.aborted) return;
          servedAt = sentUrls[0] ?? '';
          stop.abort();
        },
      },
    );
    expect(result.run.status).toBe('stopped');
    expect(servedAt).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/[0-9a-f]{32}/0\\.png$`));
    await expect(fetch(servedAt)).rejects.toThrow();
  });

  it('sends the same JPEG bytes by URL as inline, and on a rerun', async () => {
    sent.length = 0;
    await runSweep({ ...spec(), images: { perRequest: 2, width: 64, height: 64, format: 'jpeg', delivery: 'data' }, levels: [1] });
    const first = sent.flat();
    sent.length = 0;
    await runSweep({ ...spec(), images: { perRequest: 2, width: 64, height: 64, format: 'jpeg', delivery: 'data' }, levels: [1] });
    expect(sent.flat()).toEqual(first);
  });

  it('refuses images by URL for a server off this machine unless an address it can reach is given, and that address without URL delivery', async () => {
    const remote = { ...spec(), url: 'http://10.9.8.7:8000', images: { perRequest: 1, width: 8, height: 8, format: 'png' as const, delivery: 'url' as const } };
    await expect(runSweep(remote)).rejects.toThrow(
      /images\.delivery: the server at 10\.9\.8\.7:8000 is not on this machine, so it cannot fetch images from goodput's image server on 127\.0\.0\.1: give an address it can reach/,
    );
    await expect(runSweep({ ...spec(), imageBaseUrl: 'http://127.0.0.1:8090' })).rejects.toThrow(
      /imageBaseUrl: an image server address applies to images by URL \(delivery url\) alone/,
    );
    await expect(runSweep({ ...remote, imageBaseUrl: 'http://10.0.0.5' })).rejects.toThrow(/imageBaseUrl: imageBaseUrl must name a port and no path/);
  });
});

describe('images and audio on the Responses API', () => {
  it('counts the same prompt tokens as chat, inline or by URL, with audio', async () => {
    const media = {
      levels: [1],
      images: { perRequest: 2, width: 512, height: 256, format: 'jpeg' as const, delivery: 'data' as const },
      audio: { seconds: 2, format: 'wav' as const },
    };
    const chat = await runSweep({ ...spec(), ...media });
    const fetched = sim.stats().imagesFetched;
    const responses = await runSweep({ ...spec(), ...media, endpoint: 'responses' });
    const byUrl = await runSweep({ ...spec(), ...media, endpoint: 'responses', images: { ...media.images, delivery: 'url' } });
    // 16 words, 2 × 16 × 8 image tokens, 2 s × 25 audio tokens.
    expect(chat.levels[0]?.promptTokens.mean).toBe(16 + 2 * 128 + 50);
    for (const r of [responses, byUrl]) {
      expect(r.run.endpoint).toBe('responses');
      expect(r.levels[0]?.failed).toBe(0);
      expect(r.levels[0]?.promptTokens.mean).toBe(chat.levels[0]?.promptTokens.mean);
    }
    expect(sim.stats().imagesFetched - fetched).toBe(2 * (1 + 4));
  });
});

describe('a chat sweep with 2 s of audio per request', () => {
  it("counts 2 × 25 audio tokens into every request's prompt tokens and records the clip", async () => {
    const audioSpec = { ...spec(), images: null, audio: { seconds: 2, format: 'wav' as const }, levels: [1] };
    const first = await runSweep(audioSpec);
    expect(first.levels[0]?.failed).toBe(0);
    expect(first.levels[0]?.audio).toEqual({ seconds: 2, format: 'wav' });
    expect(first.levels[0]?.promptTokens.mean).toBe(16 + 50);
    expect(first.levels[0]?.images).toBeUndefined();
  });

  it('refuses audio on the completions endpoint, naming it', async () => {
    await expect(runSweep({ ...spec(), images: null, audio: { seconds: 2, format: 'wav' }, endpoint: 'completions' })).rejects.toThrow(
      /audio: audio is sent in chat messages: it needs the chat or responses endpoint, not completions/,
    );
    await expect(runSweep({ ...spec(), audio: { seconds: -1, format: 'wav' } })).rejects.toThrow(/audio\.seconds: audio seconds must be positive/);
  });
});

describe('the image pool', () => {
  it('gives each request its own images in turn, and stays within its byte budget', () => {
    const images = { perRequest: 2, width: 64, height: 64, format: 'png' as const, delivery: 'data' as const };
    const pool = imagePool(images, 1, 10, 3);
    expect(pool).toHaveLength(6);
    expect(imagesOf(pool, 2, 1)).toEqual([pool[2], pool[3]]);
    expect(imagesOf(pool, 2, 3)).toEqual([pool[0], pool[1]]);
    // A pool past the budget stops drawing and is reused in turn.
    const big = { perRequest: 1, width: 2048, height: 2048, format: 'png' as const, delivery: 'data' as const };
    const capped = imagePool(big, 1, 0, 1000);
    expect(capped.length).toBeLessThan(1000);
    expect(capped.reduce((s, u) => s + u.length, 0)).toBeLessThan(IMAGE_POOL_BYTES + 200_000);
  });
});

describe('bad image input', () => {
  it('refuses images on the completions endpoint, naming it', async () => {
    await expect(runSweep({ ...spec(), endpoint: 'completions' })).rejects.toThrow(
      /images: images are sent in chat messages: they need the chat or responses endpoint, not completions/,
    );
  });

  it('refuses a size of 0 and a size past the limits table, naming the field', async () => {
    await expect(runSweep({ ...spec(), images: { perRequest: 2, width: 0, height: 512, format: 'png' } })).rejects.toThrow(
      /images\.width: image width must be positive/,
    );
    await expect(runSweep({ ...spec(), images: { perRequest: 17, width: 8, height: 8, format: 'png' } })).rejects.toThrow(
      /images\.perRequest: .*17 is above the limit of 16 images in one chat request/,
    );
    await expect(runSweep({ ...spec(), images: { perRequest: 1, width: 4097, height: 8, format: 'png' } })).rejects.toThrow(
      /4097 is above the limit of 4096 pixels on one side/,
    );
  });

  it('refuses images whose data URLs alone pass the request-body limit, before anything is sent', async () => {
    sent.length = 0;
    const err = await runSweep({ ...spec(), images: { perRequest: 16, width: 4096, height: 4096, format: 'png' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SweepError);
    expect((err as SweepError).code).toBe('bad-input');
    expect((err as Error).message).toMatch(
      /^--images 16 of --image-size 4096x4096 make \d+ bytes of data URLs in one request, above the limit of 4194304 bytes in one request body we send/,
    );
    expect(sent).toEqual([]);
  });
});
