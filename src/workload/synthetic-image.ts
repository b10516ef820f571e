/**
 * Synthetic images for chat requests with image inputs: PNG files drawn from a
 * seed alone, so the same seed gives the same bytes on every run and machine.
 * Each image is a grid of 16-pixel tiles of seeded colours: every request's
 * images differ (an engine cannot serve them from an image cache), yet they
 * compress well, so a 2048×2048 image stays far below the request-body limit.
 */
import { crc32, deflateSync } from 'node:zlib';
import { LIMITS, limitMessage, mulberry32 } from '../core/index.js';

/** Pixel size of one square tile of a synthetic image. */
export const IMAGE_TILE = 16;

/** How many images of what size every chat request carries. */
export interface ImageSpec { count: number; width: number; height: number }

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** The refusal for a size no image may have, naming the flag; null when it is fine. */
export function imageSizeProblem(width: number, height: number, flag = '--image-size'): string | null {
  for (const [side, v] of [['width', width], ['height', height]] as const) {
    if (!Number.isInteger(v) || v < 1) return `${flag}: the ${side} must be a whole number of pixels, at least 1 (got ${v})`;
    if (v > LIMITS.imageSide.max) return `${flag}: ${limitMessage('imageSide', v, `the ${side}`)}`;
  }
  return null;
}

/**
 * The PNG of image `index` drawn from `seed`: 8-bit RGB, every row filtered
 * (the first of a tile row written whole, the rest "Up", all zeros).
 * @throws RangeError for a size past the limits table.
 */
export function syntheticPng(width: number, height: number, seed: number, index: number): Buffer {
  const problem = imageSizeProblem(width, height, 'image size');
  if (problem !== null) throw new RangeError(problem);
  const random = mulberry32((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const tilesX = Math.ceil(width / IMAGE_TILE);
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height);
  let tileRow = Buffer.alloc(0);
  for (let y = 0; y < height; y++) {
    const at = y * stride;
    if (y % IMAGE_TILE !== 0) { raw[at] = 2; continue; }
    tileRow = Buffer.alloc(width * 3);
    for (let tx = 0; tx < tilesX; tx++) {
      const rgb = [Math.floor(random() * 256), Math.floor(random() * 256), Math.floor(random() * 256)];
      for (let x = tx * IMAGE_TILE; x < Math.min(width, (tx + 1) * IMAGE_TILE); x++) tileRow.set(rgb, x * 3);
    }
    raw[at] = 0;
    tileRow.copy(raw, at + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from('89504e470d0a1a0a', 'hex');
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Image `index` as the data URL a chat `image_url` part carries. */
export function syntheticImageUrl(width: number, height: number, seed: number, index: number): string {
  return `data:image/png;base64,${syntheticPng(width, height, seed, index).toString('base64')}`;
}
