/**
 * Synthetic JPEGs: the same seeded tiles as the PNGs, written as baseline
 * (sequential, Huffman) JFIF files by a small encoder of our own. A tile is 16
 * pixels, a JPEG block 8, so every block is one flat colour: its DCT has a DC
 * term alone, exactly 8 × (value − 128), and a quantiser of 8 makes it the
 * value itself. The whole encoding is then integer arithmetic, byte-identical
 * on every machine, and fast (a 4096×4096 image is ~260,000 blocks of three
 * DC codes each), where a general encoder would spend a float DCT on blocks
 * that have nothing but a DC term.
 */
import { LIMITS } from '../core/index.js';
import { IMAGE_TILE, tileColours } from './image-tiles.js';

/** The DC quantiser: 8 turns a flat block's DC coefficient into its level-shifted value exactly. */
const DC_QUANT = 8;
/** ITU T.81 Annex K's luminance DC table (code lengths 1..16, then symbols): categories 0 to 11. */
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/** An AC table with one code, end-of-block ('0'): every block here has no AC term. */
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALUES = [0];

function segment(marker: number, body: number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...body];
}

/** Canonical Huffman codes from a table's code lengths (T.81 Annex C): symbol → [code, length]. */
function huffmanCodes(bits: readonly number[], values: readonly number[]): Map<number, [number, number]> {
  const codes = new Map<number, [number, number]>();
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < (bits[length - 1] ?? 0); i++) codes.set(values[k++] as number, [code++, length]);
    code <<= 1;
  }
  return codes;
}

const DC_CODES = huffmanCodes(DC_BITS, DC_VALUES);

/** Writes bits MSB first, stuffing a 0x00 after every 0xff byte of entropy-coded data. */
class BitWriter {
  private bytes: Buffer;
  private at = 0;
  private acc = 0;
  private count = 0;
  constructor(capacity: number) {
    this.bytes = Buffer.alloc(capacity);
  }
  write(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((code >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes[this.at++] = this.acc;
    if (this.acc === 0xff) this.bytes[this.at++] = 0;
    this.acc = 0;
    this.count = 0;
  }
  /** Pads the last byte with 1 bits, as T.81 asks. */
  finish(): Buffer {
    if (this.count > 0) this.write((1 << (8 - this.count)) - 1, 8 - this.count);
    return this.bytes.subarray(0, this.at);
  }
}

/** One DC difference: its category's Huffman code, then the category's bits of the value (negatives as value − 1). */
function writeDc(out: BitWriter, diff: number): void {
  const magnitude = Math.abs(diff);
  const category = magnitude === 0 ? 0 : 32 - Math.clz32(magnitude);
  const [code, length] = DC_CODES.get(category) as [number, number];
  out.write(code, length);
  if (category > 0) out.write(diff < 0 ? diff + (1 << category) - 1 : diff, category);
}

/** JFIF's YCbCr from 8-bit RGB, in integers (BT.601, full range), each 0 to 255. */
function ycbcr(rgb: readonly number[]): [number, number, number] {
  const [r = 0, g = 0, b = 0] = rgb;
  const clamp = (v: number) => Math.max(0, Math.min(255, v));
  return [
    clamp((77 * r + 150 * g + 29 * b + 128) >> 8),
    clamp(((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128),
    clamp(((128 * r - 107 * g - 21 * b + 128) >> 8) + 128),
  ];
}

/**
 * The baseline JPEG of image `index` drawn from `seed`: three components at full
 * resolution (4:4:4), one quantisation table and one pair of Huffman tables.
 * @throws RangeError for a size past the limits table.
 */
export function syntheticJpeg(width: number, height: number, seed: number, index: number): Buffer {
  for (const side of [width, height]) {
    if (!Number.isInteger(side) || side < 1 || side > LIMITS.imageSide.max)
      throw new RangeError(`image size: each side must be 1 to ${LIMITS.imageSide.max} pixels (got ${width}×${height})`);
  }
  const colours = tileColours(width, height, seed, index);
  const blocksX = Math.ceil(width / 8);
  const blocksY = Math.ceil(height / 8);
  const perTile = IMAGE_TILE / 8;
  // A block's three DC codes take at most 3 × (9 + 8 + 1) bits: 7 bytes, 14 with stuffing.
  const out = new BitWriter(blocksX * blocksY * 14 + 16);
  const previous = [0, 0, 0];
  for (let by = 0; by < blocksY; by++) {
    const row = colours[Math.floor(by / perTile)] as number[][];
    for (let bx = 0; bx < blocksX; bx++) {
      const levels = ycbcr(row[Math.floor(bx / perTile)] as number[]);
      for (let c = 0; c < 3; c++) {
        const dc = (levels[c] as number) - 128;
        writeDc(out, dc - (previous[c] as number));
        previous[c] = dc;
        out.write(0, 1); // end of block
      }
    }
  }
  const quant = [DC_QUANT, ...Array.from({ length: 63 }, () => 16)];
  const header = [
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0x00, ...quant]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
    ...segment(0xc4, [0x00, ...DC_BITS, ...DC_VALUES, 0x10, ...AC_BITS, ...AC_VALUES]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
  ];
  return Buffer.concat([Buffer.from(header), out.finish(), Buffer.from([0xff, 0xd9])]);
}
