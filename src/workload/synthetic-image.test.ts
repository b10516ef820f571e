import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pngInfo, distinctColours } from '../test-support/png.js';
import { imageSizeProblem, syntheticImageUrl, syntheticPng } from './synthetic-image.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('syntheticPng', () => {
  it('is byte-identical for the same seed and index, and different otherwise', () => {
    const a = syntheticPng(512, 512, 42, 3);
    expect(sha(syntheticPng(512, 512, 42, 3))).toBe(sha(a));
    expect(sha(syntheticPng(512, 512, 42, 4))).not.toBe(sha(a));
    expect(sha(syntheticPng(512, 512, 43, 3))).not.toBe(sha(a));
  });

  it('pins the bytes of one seed, so a changed drawing is noticed (the hash a rerun must reproduce)', () => {
    expect(sha(syntheticImageUrl(64, 48, 42, 0))).toMatchInlineSnapshot(`"f004a0d2d36b5199175eb6d7b22fc90738e423f418db08e227f5a2ac6ef767c6"`);
  });

  it('writes a valid PNG of the asked size: chunk CRCs, pixels, tiles of seeded colours', () => {
    const png = syntheticPng(100, 37, 7, 0);
    expect(pngInfo(png)).toEqual({ width: 100, height: 37, bitDepth: 8, colorType: 2 });
    const raw = inflateSync(png.subarray(33 + 8, png.length - 12 - 4));
    expect(raw.length).toBe(37 * (1 + 100 * 3));
    // 7 × 3 tiles, colours drawn at random: nearly all distinct.
    expect(distinctColours(png)).toBeGreaterThan(15);
    expect(distinctColours(png)).toBeLessThanOrEqual(21);
  });

  it('keeps a large image small enough for a request body (compressible tiles)', () => {
    expect(syntheticImageUrl(2048, 2048, 1, 0).length).toBeLessThan(600_000);
  });

  it('refuses a size of 0, a fraction or past the limits table, naming the flag', () => {
    expect(imageSizeProblem(0, 512)).toBe('--image-size: the width must be a whole number of pixels, at least 1 (got 0)');
    expect(imageSizeProblem(512, 1.5)).toMatch(/^--image-size: the height must be a whole number/);
    expect(imageSizeProblem(512, 4097)).toBe('--image-size: the height 4097 is above the limit of 4096 pixels on one side of a synthetic image');
    expect(() => syntheticPng(0, 1, 1, 0)).toThrow(RangeError);
    expect(imageSizeProblem(4096, 4096)).toBeNull();
  });
});
