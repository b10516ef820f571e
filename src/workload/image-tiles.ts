/**
 * What every synthetic image is drawn from: a grid of 16-pixel tiles whose
 * colours come from the seed and the image's index alone, whatever the format.
 */
import { mulberry32 } from '../core/index.js';

/** Pixel size of one square tile of a synthetic image (a multiple of JPEG's 8-pixel blocks). */
export const IMAGE_TILE = 16;

/** The seeded colours of image `index`'s tiles, row by row: [tile row][tile column] = [r, g, b]. */
export function tileColours(width: number, height: number, seed: number, index: number): number[][][] {
  const random = mulberry32((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const tilesX = Math.ceil(width / IMAGE_TILE);
  return Array.from({ length: Math.ceil(height / IMAGE_TILE) }, () =>
    Array.from({ length: tilesX }, () => [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)]),
  );
}
