/**
 * Just enough PNG reading for tests: the IHDR size, and the pixels of an
 * 8-bit RGB/RGBA non-interlaced image (what resvg writes), unfiltered, so a
 * test can count colours instead of trusting the file's length.
 */
import { inflateSync } from 'node:zlib';

export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

export function pngInfo(png: Buffer): PngInfo {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG signature');
  if (png.subarray(12, 16).toString('latin1') !== 'IHDR') throw new Error('first chunk is not IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png.readUInt8(24), colorType: png.readUInt8(25) };
}

/** Distinct pixel values (RGBA as one number) of the image. */
export function distinctColours(png: Buffer): number {
  const info = pngInfo(png);
  const channels = info.colorType === 6 ? 4 : info.colorType === 2 ? 3 : 0;
  if (channels === 0 || info.bitDepth !== 8) throw new Error(`unsupported PNG colour type ${info.colorType}, depth ${info.bitDepth}`);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('latin1') === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = info.width * channels;
  let prev = Buffer.alloc(stride);
  const colours = new Set<number>();
  for (let y = 0; y < info.height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? (line[i - channels] as number) : 0;
      const b = prev[i] as number;
      const c = i >= channels ? (prev[i - channels] as number) : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter];
      if (add === undefined) throw new Error(`bad PNG filter ${filter}`);
      line[i] = ((line[i] as number) + add) & 0xff;
    }
    for (let x = 0; x < stride; x += channels) colours.add(line.readUIntBE(x, channels) * (channels === 3 ? 256 : 1));
    prev = line;
  }
  return colours.size;
}
