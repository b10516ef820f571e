/**
 * The synthetic JPEGs: byte-identical by seed, the size in their frame header,
 * and a real decoder's view of them: Chromium's (libjpeg-turbo) decodes each
 * into the seeded tile colours the PNG of the same seed shows.
 */
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileColours } from './image-tiles.js';
import { syntheticImageUrl } from './synthetic-image.js';
import { syntheticJpeg } from './synthetic-jpeg.js';
import { launchChromium } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, patient(60_000));
afterAll(async () => {
  await browser?.close();
});

/** The pixels Chromium decodes from `url`, RGBA row by row. */
async function decode(url: string): Promise<{ width: number; height: number; rgba: number[] }> {
  const page = await browser.newPage();
  try {
    // Run in the page, where the DOM's decoder lives (a string: this file is compiled without DOM types).
    return await page.evaluate(`(async () => {
      const bitmap = await createImageBitmap(await (await fetch(${JSON.stringify(url)})).blob());
      const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      return { width: bitmap.width, height: bitmap.height, rgba: Array.from(ctx.getImageData(0, 0, bitmap.width, bitmap.height).data) };
    })()`);
  } finally {
    await page.close();
  }
}

describe('syntheticJpeg', () => {
  it('is byte-identical for the same seed and index, and different otherwise; its bytes are pinned', () => {
    const a = syntheticJpeg(512, 512, 42, 3);
    expect(sha(syntheticJpeg(512, 512, 42, 3))).toBe(sha(a));
    expect(sha(syntheticJpeg(512, 512, 42, 4))).not.toBe(sha(a));
    expect(sha(syntheticJpeg(512, 512, 43, 3))).not.toBe(sha(a));
    expect(sha(syntheticImageUrl(64, 48, 42, 0, 'jpeg'))).toMatchInlineSnapshot(`"215807e90eeb3f25151eb019739b53e30390fabc0e76301fde56650a66b4d89e"`);
  });

  it('is a baseline JFIF file with the asked size in its frame header', () => {
    const jpeg = syntheticJpeg(100, 37, 7, 0);
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(0);
    expect({ height: jpeg.readUInt16BE(sof + 5), width: jpeg.readUInt16BE(sof + 7) }).toEqual({ width: 100, height: 37 });
    expect(syntheticImageUrl(100, 37, 7, 0, 'jpeg')).toMatch(/^data:image\/jpeg;base64,\/9j\//);
  });

  it(
    'decodes in Chromium to the seeded tile colours (within JPEG colour rounding), at odd sizes too',
    async () => {
      for (const [width, height] of [
        [64, 48],
        [37, 21],
      ] as const) {
        const image = await decode(syntheticImageUrl(width, height, 9, 2, 'jpeg'));
        expect({ width: image.width, height: image.height }).toEqual({ width, height });
        const tiles = tileColours(width, height, 9, 2);
        let worst = 0;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const want = tiles[Math.floor(y / 16)]?.[Math.floor(x / 16)] as number[];
            for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs((image.rgba[(y * width + x) * 4 + c] as number) - (want[c] as number)));
          }
        }
        // RGB → YCbCr → RGB in 8 bits loses a few levels at most; a wrong block or table would be off by far more.
        expect(worst).toBeLessThanOrEqual(4);
      }
    },
    patient(60_000),
  );

  it('draws the largest size quickly enough to pool, and refuses a size past the limits table', () => {
    expect(syntheticJpeg(4096, 4096, 1, 0).length).toBeLessThan(1_500_000);
    expect(() => syntheticJpeg(4097, 8, 1, 0)).toThrow(RangeError);
    expect(() => syntheticJpeg(0, 8, 1, 0)).toThrow(RangeError);
  });
});
