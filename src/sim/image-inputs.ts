/**
 * Image parts of a chat request as the simulated vision model sees them: each
 * `image_url` part must be an inline PNG (the simulator fetches no URLs); its
 * size, read from the PNG header, sets the tokens it adds to the prompt (one per
 * patch, rounded up on each side) and each image adds the encoder's time to the
 * request's prefill.
 */
import { hashString53, LIMITS } from '../core/index.js';
import type { SimProfile } from './profile-schema.js';
import type { ChatMessage } from './request-schema.js';

/** What a request's images add: prompt words (one per image token) and encoder time. */
export type ImageInputs =
  | { ok: true; count: number; words: string[]; encoderMs: number }
  | { ok: false; param: string; message: string };

const PNG_PREFIX = 'data:image/png;base64,';
// Signature (8) + IHDR length and type (8) + width and height (8): 24 bytes = 32 base64 characters.
const HEADER_CHARS = 32;

/** Tokens one image of `width` × `height` pixels costs under the profile's patch rule. */
export function imageTokens(profile: SimProfile, width: number, height: number): number {
  const p = profile.images.patchPixels;
  return profile.images.baseTokens + Math.ceil(width / p) * Math.ceil(height / p);
}

function pngSize(url: string): { width: number; height: number } | string {
  if (!url.startsWith(PNG_PREFIX)) return 'must be a data:image/png;base64 URL (the simulator reads inline PNGs and fetches no URLs)';
  const head = Buffer.from(url.slice(PNG_PREFIX.length, PNG_PREFIX.length + HEADER_CHARS), 'base64');
  if (head.length < 24 || head.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a' || head.subarray(12, 16).toString('latin1') !== 'IHDR') {
    return 'is not a PNG (no signature and IHDR header)';
  }
  const width = head.readUInt32BE(16);
  const height = head.readUInt32BE(20);
  if (width < 1 || height < 1 || width > LIMITS.imageSide.max || height > LIMITS.imageSide.max) {
    return `has a size of ${width}×${height}: each side must be 1 to ${LIMITS.imageSide.max} pixels`;
  }
  return { width, height };
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
  if (head.length < 44 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 16) !== 'WAVEfmt ' || head.toString('latin1', 36, 40) !== 'data') {
    return { ok: false, param, message: 'is not a WAV file (RIFF, WAVE, fmt and data headers)' };
  }
  const byteRate = head.readUInt32LE(28);
  // The header's data size may claim more than was sent: the bytes actually sent count.
  const sent = Math.max(0, Math.floor((data.data.length * 3) / 4) - 44);
  const seconds = byteRate > 0 ? Math.min(head.readUInt32LE(40), sent) / byteRate : Infinity;
  if (!(seconds > 0) || seconds > LIMITS.audioSeconds.max) return { ok: false, param, message: `lasts ${seconds} seconds: it must be above 0 and at most ${LIMITS.audioSeconds.max}` };
  const word = `<aud${hashString53(data.data).toString(36)}>`;
  const tokens = Math.ceil(seconds * profile.audio.tokensPerSecond);
  return { ok: true, count: 0, words: Array.from({ length: tokens }, () => word), encoderMs: seconds * profile.audio.encoderMsPerSecond };
}

/** The image and audio parts of `messages`, checked and counted; a bad one names its place. */
export function imageInputs(profile: SimProfile, messages: readonly ChatMessage[]): ImageInputs {
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
      const ref = (part as { image_url?: unknown }).image_url;
      const url = typeof ref === 'string' ? ref : typeof ref === 'object' && ref !== null ? (ref as { url?: unknown }).url : undefined;
      if (typeof url !== 'string') return { ok: false, param, message: 'needs a url' };
      if (++count > LIMITS.imagesPerRequest.max) return { ok: false, param, message: `more than ${LIMITS.imagesPerRequest.max} images in one request` };
      const size = pngSize(url);
      if (typeof size === 'string') return { ok: false, param, message: size };
      // One distinct word per image, so two images never share prefix-cache blocks by accident.
      const word = `<img${hashString53(url).toString(36)}>`;
      for (let t = imageTokens(profile, size.width, size.height); t > 0; t--) words.push(word);
    }
  }
  return { ok: true, count, words, encoderMs: encoderMs + count * profile.images.encoderMsPerImage };
}
