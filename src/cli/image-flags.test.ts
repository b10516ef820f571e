/** `goodput sweep --images --image-size`: the table says what each request carried, and every bad value is refused naming its flag. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-images-'));
beforeAll(async () => {
  sim = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, images: { encoderMsPerImage: 0 } });
});
afterAll(async () => {
  await sim.close();
});

describe('goodput sweep --images', () => {
  it('says in the caption how many images of what size each request carried, and the JSON levels carry it', async () => {
    const json = join(dir, 'images.json');
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--images',
      '2',
      '--image-size',
      '64x32',
      '--no-server-metrics',
      '--json',
      json,
    ]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    // ceil(64/32) × ceil(32/32) = 2 tokens per image.
    expect(r.stdout).toContain(
      'images 2 images of 64×32 PNG per request (synthetic, drawn from the seed, sent inline as data URLs) · the server counted 20.0 prompt tokens per request, images included',
    );
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels[0]?.images).toEqual({ perRequest: 2, width: 64, height: 32, format: 'png', delivery: 'data' });
  });

  it('sends JPEGs by URL from its own image server and says so; the server counted the same tokens', async () => {
    const json = join(dir, 'jpeg-url.json');
    const fetched = sim.stats().imagesFetched;
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--images',
      '2',
      '--image-size',
      '64x32',
      '--image-format',
      'jpeg',
      '--image-delivery',
      'url',
      '--no-server-metrics',
      '--json',
      json,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'images 2 images of 64×32 JPEG by URL per request (synthetic, drawn from the seed, served by goodput on its own HTTP server and fetched by the server) · the server counted 20.0 prompt tokens per request, images included',
    );
    expect(sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8'))).levels[0]?.images).toEqual({
      perRequest: 2,
      width: 64,
      height: 32,
      format: 'jpeg',
      delivery: 'url',
    });
    // A warm-up and 2 measured requests, 2 images each.
    expect(sim.stats().imagesFetched - fetched).toBe(6);
  });

  it('sends images and audio on --endpoint responses, counted as on chat', async () => {
    const json = join(dir, 'responses.json');
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--endpoint',
      'responses',
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--images',
      '1',
      '--image-size',
      '64x64',
      '--audio-seconds',
      '1',
      '--no-server-metrics',
      '--json',
      json,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    // 16 words, 2 × 2 image tokens, 25 audio tokens.
    expect(result.levels[0]?.promptTokens.mean).toBe(16 + 4 + 25);
  });

  it('says the audio clip each request carried, and the JSON levels carry it', async () => {
    const json = join(dir, 'audio.json');
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--audio-seconds',
      '2',
      '--no-server-metrics',
      '--json',
      json,
    ]);
    expect(r.code).toBe(0);
    // 2 s × 25 tokens per second.
    expect(r.stdout).toContain(
      'audio 2 s of 8 kHz mono WAV per request (synthetic, drawn from the seed, sent inline as input_audio) · the server counted 66.0 prompt tokens per request, audio included',
    );
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels[0]?.audio).toEqual({ seconds: 2, format: 'wav' });
  });

  const refused: Array<[string[], string]> = [
    [['--audio-seconds', '-1'], "--audio-seconds: '-1' must be greater than 0"],
    [['--audio-seconds', '0'], "--audio-seconds: '0' must be greater than 0"],
    [['--audio-seconds', '0.00001'], '--audio-seconds: the clip must be longer than 0 seconds (got 0.00001)'],
    [['--audio-seconds', '121'], '--audio-seconds: 121 is above the limit of 120 seconds of synthetic audio in one chat request'],
    [
      ['--audio-seconds', '2', '--endpoint', 'completions'],
      '--audio-seconds: audio is sent in chat messages: use --endpoint chat or responses, not completions',
    ],
    [['--images', '0'], "--images: '0' must be at least 1"],
    [['--images', '17'], '--images: 17 is above the limit of 16 images in one chat request'],
    [['--images', '1.5'], "--images: '1.5' is not a whole number"],
    [['--images', '2', '--image-size', '0x512'], '--image-size: the width must be a whole number of pixels, at least 1 (got 0)'],
    [['--images', '2', '--image-size', '512x4097'], '--image-size: the height 4097 is above the limit of 4096 pixels on one side of a synthetic image'],
    [['--images', '2', '--image-size', 'big'], "--image-size: 'big' is not WIDTHxHEIGHT in pixels, e.g. 512x512"],
    [['--image-size', '512x512'], '--image-size: needs --images (how many images each request carries)'],
    [['--image-format', 'jpeg'], '--image-format: needs --images (how many images each request carries)'],
    [['--image-delivery', 'url'], '--image-delivery: needs --images (how many images each request carries)'],
    [['--images', '1', '--image-format', 'gif'], "--image-format: 'gif' is not one of png, jpeg"],
    [['--images', '1', '--image-delivery', 'ftp'], "--image-delivery: 'ftp' is not one of data, url"],
    [['--images', '1', '--image-base-url', 'http://10.0.0.5:8090'], '--image-base-url: applies to --image-delivery url (images the server fetches) alone'],
    [
      ['--images', '1', '--image-delivery', 'url', '--image-base-url', 'http://10.0.0.5:8090/x'],
      "--image-base-url: 'http://10.0.0.5:8090/x' must be http://HOST:PORT, no path",
    ],
    [['--images', '1', '--image-delivery', 'url', '--image-base-url', 'nope'], "--image-base-url: 'nope' is not a URL"],
    [
      ['--images', '1', '--image-delivery', 'url', '--url', 'http://10.9.8.7:8000'],
      "images.delivery: the server at 10.9.8.7:8000 is not on this machine, so it cannot fetch images from goodput's image server on 127.0.0.1: give an address it can reach (imageBaseUrl, --image-base-url) or send them as data",
    ],
    [['--images', '2', '--endpoint', 'completions'], '--images: images are sent in chat messages: use --endpoint chat or responses, not completions'],
    [['--images', '2', '--endpoint', 'embeddings'], '--images: images are sent in chat messages: use --endpoint chat or responses, not embeddings'],
  ];
  for (const [flags, message] of refused) {
    it(`refuses ${flags.join(' ')} before sending anything`, async () => {
      const before = (await (await fetch(`${sim.url}/sim/stats`)).json()) as { accepted?: number; requests?: number };
      const r = await cli(['sweep', '--url', sim.url, '--levels', '1', ...flags]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(await (await fetch(`${sim.url}/sim/stats`)).json()).toEqual(before);
    });
  }
});
