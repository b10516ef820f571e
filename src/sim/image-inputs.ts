/**
 * Image parts of a chat request as the simulated vision model sees them: each
 * `image_url` part is an inline PNG or JPEG, or an http URL on loopback fetched
 * before (image-fetch.ts); its size, read from the file's header, sets the tokens it adds to the prompt (one per
 * patch, rounded up on each side) and each image adds the encoder's time to the
 * request's prefill.
 */
import { hashString53, LIMITS } from '../core/index.js';
import { imageUrlOf } from './image-fetch.js';
import type { SimProfile } from './profile-schema.js';
import type { ChatMessage } from './request-schema.js';

/** What a request's images add: prompt words (one per image token) and encoder time. */
export type ImageInputs = { ok: true; count: number; words: string[]; encoderMs: number } | { ok: false; param: string; message: string };

const DATA_PREFIXES = ['data:image/png;base64,', 'data:image/jpeg;base64,'];
// A JPEG's size sits in its frame header, after any APPn and tables: read at most 64 KiB of it (87,384 base64 characters).
const HEADER_CHARS = 87_384;

/** Tokens one image of `width` × `height` pixels costs under the profile's patch rule. */
export function imageTokens(profile: SimProfile, width: number, height: number): number {
  const p = profile.images.patchPixels;
  return profile.images.baseTokens + Math.ceil(width / p) * Math.ceil(height / p);
}

/** A JPEG's size from its first frame header (SOF0 to SOF15, not DHT, JPG or DAC); null when none is found in `bytes`. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

/** An image file's size from its header: PNG (IHDR) or JPEG (frame header); a string naming what is wrong otherwise. */
export function imageFileSize(bytes: Buffer): { width: number; height: number } | string {
  let size: { width: number; height: number } | null = null;
  if (bytes.length >= 24 && bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a' && bytes.subarray(12, 16).toString('latin1') === 'IHDR') {
    size = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  } else if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    size = jpegSize(bytes);
    if (size === null) return 'is a JPEG without a frame header in its first 64 KiB';
  } else return 'is neither a PNG (signature and IHDR) nor a JPEG (SOI marker)';
  const { width, height } = size;
  if (width < 1 || height < 1 || width > LIMITS.imageSide.max || height > LIMITS.imageSide.max) {
    return `has a size of ${width}×${height}: each side must be 1 to ${LIMITS.imageSide.max} pixels`;
  }
  return size;
}

/** The size of an inline image (a PNG or JPEG data URL), or of a fetched one found in `fetched`. */
function imageSize(url: string, fetched: ReadonlyMap<string, Buffer>): { width: number; height: number } | string {
  const file = fetched.get(url);
  if (file !== undefined) return imageFileSize(file);
  const prefix = DATA_PREFIXES.find((p) => url.startsWith(p));
  if (prefix === undefined)
    return 'must be a PNG or JPEG data URL (data:image/png;base64 or data:image/jpeg;base64), or an http URL on loopback the simulator fetches';
  return imageFileSize(Buffer.from(url.slice(prefix.length, prefix.length + HEADER_CHARS), 'base64'));
}

/**
 * One `input_audio` part: base64 WAV (PCM); its length, from the header's byte rate and the
 * data actually sent, sets its tokens (per second, rounded up) and its encoder time.
 */
function audioInput(profile: SimProfile, part: object, param: string): ImageInputs {
  const ref = (part as { input_audio?: unknown }).input_audio;
  const data = typeof ref === 'object' && ref !== null ? (ref as { data?: unknown; format?: unknown }) : {};
  if (typeof data.data !== 'string' || data.format !== 'wav') return { ok: false, param, message: 'needs data (base64) and format "wav"' };
  const head = Buffer.from(data.data.slice(0, 60), 'base64');
  if (
    head.length < 44 ||
    head.toString('latin1', 0, 4) !== 'RIFF' ||
    head.toString('latin1', 8, 16) !== 'WAVEfmt ' ||
    head.toString('latin1', 36, 40) !== 'data'
  ) {
    return { ok: false, param, message: 'is not a WAV file (RIFF, WAVE, fmt and data headers)' };
  }
  const byteRate = head.readUInt32LE(28);
  // The header's data size may claim more than was sent: the bytes actually sent count.
  const sent = Math.max(0, Math.floor((data.data.length * 3) / 4) - 44);
  const seconds = byteRate > 0 ? Math.min(head.readUInt32LE(40), sent) / byteRate : Infinity;
  if (!(seconds > 0) || seconds > LIMITS.audioSeconds.max)
    return { ok: false, param, message: `lasts ${seconds} seconds: it must be above 0 and at most ${LIMITS.audioSeconds.max}` };
  const word = `<aud${hashString53(data.data).toString(36)}>`;
  const tokens = Math.ceil(seconds * profile.audio.tokensPerSecond);
  return { ok: true, count: 0, words: Array.from({ length: tokens }, () => word), encoderMs: seconds * profile.audio.encoderMsPerSecond };
}

/** The image and audio parts of `messages`, checked and counted; a bad one names its place. */
export function imageInputs(profile: SimProfile, messages: readonly ChatMessage[], fetched: ReadonlyMap<string, Buffer> = new Map()): ImageInputs {
  const words: string[] = [];
  let count = 0;
  let encoderMs = 0;
  for (const [m, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [p, part] of message.content.entries()) {
      if (part.type === 'input_audio') {
        const clip = audioInput(profile, part, `messages[${m}].content[${p}].input_audio`);
        if (!clip.ok) return clip;
        words.push(...clip.words);
        encoderMs += clip.encoderMs;
        continue;
      }
      if (part.type !== 'image_url') continue;
      const param = `messages[${m}].content[${p}].image_url`;
      const url = imageUrlOf(part);
      if (typeof url !== 'string') return { ok: false, param, message: 'needs a url' };
      if (++count > LIMITS.imagesPerRequest.max) return { ok: false, param, message: `more than ${LIMITS.imagesPerRequest.max} images in one request` };
      const size = imageSize(url, fetched);
      if (typeof size === 'string') return { ok: false, param, message: size };
      // One distinct word per image, so two images never share prefix-cache blocks by accident.
      const file = fetched.get(url);
      const same = file === undefined ? url : `data:image/${file[0] === 0xff ? 'jpeg' : 'png'};base64,${file.toString('base64')}`;
      // A fetched image is the same image as its data URL would be: the same word, so caches see them alike.
      const word = `<img${hashString53(same).toString(36)}>`;
      for (let t = imageTokens(profile, size.width, size.height); t > 0; t--) words.push(word);
    }
  }
  return { ok: true, count, words, encoderMs: encoderMs + count * profile.images.encoderMsPerImage };
}
