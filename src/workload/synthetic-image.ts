/**
 * Synthetic images for chat requests with image inputs: PNG or JPEG files drawn from a
 * seed alone, so the same seed gives the same bytes on every run and machine.
 * Each image is a grid of 16-pixel tiles of seeded colours: every request's
 * images differ (an engine cannot serve them from an image cache), yet they
 * compress well, so a 2048×2048 image stays far below the request-body limit.
 */
import { crc32, deflateSync } from 'node:zlib';
import { type ImageFormat, LIMITS, limitMessage } from '../core/index.js';
import { IMAGE_TILE, tileColours } from './image-tiles.js';
import { syntheticJpeg } from './synthetic-jpeg.js';

/** How many images of what size every chat request carries. */
export interface ImageSpec {
  count: number;
  width: number;
  height: number;
}

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
  for (const [side, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
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
  const colours = tileColours(width, height, seed, index);
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const at = y * stride;
    if (y % IMAGE_TILE !== 0) {
      raw[at] = 2;
      continue;
    }
    const tiles = colours[y / IMAGE_TILE] as number[][];
    for (let x = 0; x < width; x++) raw.set(tiles[Math.floor(x / IMAGE_TILE)] as number[], at + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from('89504e470d0a1a0a', 'hex');
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Image `index` of `format`, as its file's bytes. */
export function syntheticImage(format: ImageFormat, width: number, height: number, seed: number, index: number): Buffer {
  return format === 'jpeg' ? syntheticJpeg(width, height, seed, index) : syntheticPng(width, height, seed, index);
}

/** The MIME type of a synthetic image of `format`. */
export const imageMime = (format: ImageFormat): string => (format === 'jpeg' ? 'image/jpeg' : 'image/png');

/** Image `index` as the data URL a chat `image_url` part carries. */
export function syntheticImageUrl(width: number, height: number, seed: number, index: number, format: ImageFormat = 'png'): string {
  return `data:${imageMime(format)};base64,${syntheticImage(format, width, height, seed, index).toString('base64')}`;
}
