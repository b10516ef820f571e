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
beforeAll(async () => { sim = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, images: { encoderMsPerImage: 0 } }); });
afterAll(async () => { await sim.close(); });

describe('goodput sweep --images', () => {
  it('says in the caption how many images of what size each request carried, and the JSON levels carry it', async () => {
    const json = join(dir, 'images.json');
    const r = await cli(['sweep', '--url', sim.url, '--levels', '1', '--requests-per-level', '2', '--prompt-tokens', '16', '--output-tokens', '8', '--images', '2', '--image-size', '64x32', '--no-server-metrics', '--json', json]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    // ceil(64/32) × ceil(32/32) = 2 tokens per image.
    expect(r.stdout).toContain('images 2 images of 64×32 PNG per request (synthetic, drawn from the seed, sent inline as data URLs) · the server counted 20.0 prompt tokens per request, images included');
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels[0]?.images).toEqual({ perRequest: 2, width: 64, height: 32, format: 'png', delivery: 'data' });
  });

  it('says the audio clip each request carried, and the JSON levels carry it', async () => {
    const json = join(dir, 'audio.json');
    const r = await cli(['sweep', '--url', sim.url, '--levels', '1', '--requests-per-level', '2', '--prompt-tokens', '16', '--output-tokens', '8', '--audio-seconds', '2', '--no-server-metrics', '--json', json]);
    expect(r.code).toBe(0);
    // 2 s × 25 tokens per second.
    expect(r.stdout).toContain('audio 2 s of 8 kHz mono WAV per request (synthetic, drawn from the seed, sent inline as input_audio) · the server counted 66.0 prompt tokens per request, audio included');
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels[0]?.audio).toEqual({ seconds: 2, format: 'wav' });
  });

  const refused: Array<[string[], string]> = [
    [['--audio-seconds', '-1'], "--audio-seconds: '-1' must be greater than 0"],
    [['--audio-seconds', '0'], "--audio-seconds: '0' must be greater than 0"],
    [['--audio-seconds', '0.00001'], '--audio-seconds: the clip must be longer than 0 seconds (got 0.00001)'],
    [['--audio-seconds', '121'], '--audio-seconds: 121 is above the limit of 120 seconds of synthetic audio in one chat request'],
    [['--audio-seconds', '2', '--endpoint', 'completions'], '--audio-seconds: audio is sent in chat messages: use --endpoint chat or responses, not completions'],
    [['--images', '0'], "--images: '0' must be at least 1"],
    [['--images', '17'], '--images: 17 is above the limit of 16 images in one chat request'],
    [['--images', '1.5'], "--images: '1.5' is not a whole number"],
    [['--images', '2', '--image-size', '0x512'], '--image-size: the width must be a whole number of pixels, at least 1 (got 0)'],
    [['--images', '2', '--image-size', '512x4097'], '--image-size: the height 4097 is above the limit of 4096 pixels on one side of a synthetic image'],
    [['--images', '2', '--image-size', 'big'], "--image-size: 'big' is not WIDTHxHEIGHT in pixels, e.g. 512x512"],
    [['--image-size', '512x512'], '--image-size: needs --images (how many images each request carries)'],
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
