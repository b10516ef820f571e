/**
 * Images given by URL, fetched as a vision engine fetches them: before the
 * request is queued, so the fetch lands in its time to first token. The
 * simulator fetches only from loopback (it must not become a way to reach
 * other hosts), over plain http, one bounded body per image, within the
 * profile's timeout.
 */
import { request } from 'node:http';
import { LIMITS } from '../core/index.js';
import type { SimProfile } from './profile-schema.js';
import type { ChatMessage } from './request-schema.js';

export type FetchedImages = { ok: true; files: Map<string, Buffer> } | { ok: false; param: string; message: string };

/** Hosts the simulator fetches from. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** Largest image file fetched, bytes: one image may not be larger than a whole request body we send. */
export const MAX_IMAGE_BYTES = LIMITS.requestBodyBytes.max;

/** An image_url part's URL (the part's `image_url.url`, or `image_url` itself when a string); undefined when it has none. */
export function imageUrlOf(part: object): unknown {
  const ref = (part as { image_url?: unknown }).image_url;
  return typeof ref === 'string' ? ref : typeof ref === 'object' && ref !== null ? (ref as { url?: unknown }).url : undefined;
}

/** The http URLs of `messages`' image parts with where each stands; data URLs are read inline and left out. */
export function remoteImageUrls(messages: readonly ChatMessage[]): Array<{ url: string; param: string }> {
  const out: Array<{ url: string; param: string }> = [];
  for (const [m, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [p, part] of message.content.entries()) {
      if (part.type !== 'image_url') continue;
      const url = imageUrlOf(part);
      if (typeof url === 'string' && !url.startsWith('data:')) out.push({ url, param: `messages[${m}].content[${p}].image_url` });
    }
  }
  return out;
}

/** One image's bytes, or why it could not be had. */
function fetchOne(url: URL, timeoutMs: number): Promise<Buffer | string> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: timeoutMs }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(`could not be fetched: the image server answered HTTP ${res.statusCode ?? '?'}`);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_IMAGE_BYTES) {
          req.destroy();
          resolve(`could not be fetched: larger than ${MAX_IMAGE_BYTES} bytes`);
        } else chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', () => resolve('could not be fetched: the connection broke'));
    });
    const deadline = setTimeout(() => {
      req.destroy();
      resolve(`could not be fetched within ${timeoutMs} ms`);
    }, timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => {
      req.destroy();
      resolve(`could not be fetched within ${timeoutMs} ms`);
    });
    req.on('error', (e) => resolve(`could not be fetched: ${e.message.slice(0, 200)}`));
    req.end();
  });
}

/** Fetches every http image URL of `messages` at once (at most the images-per-request limit); the first failure names its part. */
export async function fetchImages(profile: SimProfile, messages: readonly ChatMessage[]): Promise<FetchedImages> {
  const wanted = remoteImageUrls(messages);
  const files = new Map<string, Buffer>();
  if (wanted.length > LIMITS.imagesPerRequest.max) {
    return {
      ok: false,
      param: (wanted[LIMITS.imagesPerRequest.max] as { param: string }).param,
      message: `more than ${LIMITS.imagesPerRequest.max} images in one request`,
    };
  }
  for (const { url, param } of wanted) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      /* refused below */
    }
    if (parsed === null || parsed.protocol !== 'http:' || !LOOPBACK.has(parsed.hostname)) {
      return {
        ok: false,
        param,
        message: 'must be a PNG or JPEG data URL, or an http URL on loopback (127.0.0.1, ::1, localhost): the simulator fetches from nowhere else',
      };
    }
  }
  const got = await Promise.all(wanted.map(async ({ url, param }) => ({ url, param, file: await fetchOne(new URL(url), profile.images.fetchTimeoutMs) })));
  for (const { url, param, file } of got) {
    if (typeof file === 'string') return { ok: false, param, message: file };
    files.set(url, file);
  }
  return { ok: true, files };
}
