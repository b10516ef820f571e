/**
 * The synthetic images and audio clips of one level, drawn before its first
 * request so no request waits for an encoder: request n's images are pool entries
 * n × perRequest … in turn. Every image is distinct until the pool's byte budget
 * is spent (then the pool is reused in turn); the pool depends only on the seed
 * and where the level starts, so a rerun sends the same bytes.
 */
import { createHash } from 'node:crypto';
import { type AudioInputs, type ImageFiles, type ImageFormat, type ImageInputs, LIMITS } from '../core/index.js';
import { imageMime, syntheticImage, syntheticWav } from '../workload/index.js';

/** Bytes of data URLs (or base64 clips) one level holds at most (per client thread): drawing them costs ~5 ms per 512×512 image. */
export const IMAGE_POOL_BYTES = 8 * 1024 * 1024;

/** Draws `wanted` items in turn until the budget (of `size` each) is spent, and never fewer than `minimum`. */
function drawPool<T>(wanted: number, minimum: number, draw: (i: number) => T, size: (item: T) => number): T[] {
  const pool: T[] = [];
  let bytes = 0;
  while (pool.length < wanted && (bytes < IMAGE_POOL_BYTES || pool.length < minimum)) {
    const item = draw(pool.length);
    pool.push(item);
    bytes += size(item);
  }
  return pool;
}

/** Characters of base64 for `bytes` bytes: what a file costs as a data URL, whichever way it is sent. */
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** The level's image files: up to `requests` × perRequest, within IMAGE_POOL_BYTES of base64 (at least one request's worth), each with its index. */
export function imageFiles(images: ImageInputs, seed: number, promptOffset: number, requests: number): Array<{ index: number; file: Buffer }> {
  const first = promptOffset * images.perRequest;
  return drawPool(
    requests * images.perRequest,
    images.perRequest,
    (i) => ({ index: first + i, file: syntheticImage(images.format, images.width, images.height, seed, first + i) }),
    (f) => base64Length(f.file.length),
  );
}

/** What identifies a level's image files without their address: how many, their bytes, and the SHA-256 of each file's SHA-256 (hex, one a line) in turn. */
export function imageFilesDigest(files: ReadonlyArray<{ file: Buffer }>): ImageFiles {
  const all = createHash('sha256');
  let bytes = 0;
  for (const { file } of files) {
    all.update(`${createHash('sha256').update(file).digest('hex')}\n`);
    bytes += file.length;
  }
  return { files: files.length, bytes, sha256: all.digest('hex') };
}

/** Where image `index` is served by goodput's image server under `base` (…/<secret>). */
export const servedImageUrl = (base: string, format: ImageFormat, index: number): string => `${base}/${index}.${format === 'jpeg' ? 'jpg' : 'png'}`;

/**
 * The level's images as the request carries them: data URLs, or (delivery url) the
 * URLs under `servedAt` where goodput's image server serves the same files.
 */
export function imagePool(images: ImageInputs, seed: number, promptOffset: number, requests: number, servedAt: string | null = null): string[] {
  const files = imageFiles(images, seed, promptOffset, requests);
  if (images.delivery === 'url') {
    if (servedAt === null) throw new Error("images by URL need the image server's address");
    return files.map(({ index }) => servedImageUrl(servedAt, images.format, index));
  }
  return files.map(({ file }) => `data:${imageMime(images.format)};base64,${file.toString('base64')}`);
}

/** The level's audio clips as base64 WAV: one per request, within the same budget (at least one). */
export function audioPool(audio: AudioInputs, seed: number, promptOffset: number, requests: number): string[] {
  return drawPool(
    requests,
    1,
    (i) => syntheticWav(audio.seconds, seed, promptOffset + i).toString('base64'),
    (clip) => clip.length,
  );
}

/** The images of request `seq` of the level, taken from the pool in turn. */
export function imagesOf(pool: readonly string[], perRequest: number, seq: number): string[] {
  return Array.from({ length: perRequest }, (_, i) => pool[(seq * perRequest + i) % pool.length] as string);
}

/**
 * The refusal when one request's images and audio alone pass the request-body
 * limit (checked on the first request's, before anything is sent); null when they fit.
 */
export function imageBytesProblem(images: ImageInputs | null, audio: AudioInputs | null, seed: number): string | null {
  // Images by URL are not in the body: the server fetches them.
  const imageBytes = images === null || images.delivery === 'url' ? 0 : imagePool(images, seed, 0, 1).reduce((sum, url) => sum + url.length, 0);
  const audioBytes = audio === null ? 0 : (audioPool(audio, seed, 0, 1)[0]?.length ?? 0);
  const bytes = imageBytes + audioBytes;
  if (bytes <= LIMITS.requestBodyBytes.max) return null;
  const what = [
    images === null
      ? ''
      : `--images ${images.perRequest} of --image-size ${images.width}x${images.height}${images.format === 'jpeg' ? ' --image-format jpeg' : ''}`,
    audio === null ? '' : `--audio-seconds ${audio.seconds}`,
  ]
    .filter(Boolean)
    .join(' and ');
  return `${what} make ${bytes} bytes of data URLs in one request, above the limit of ${LIMITS.requestBodyBytes.max} ${LIMITS.requestBodyBytes.what}: send fewer or smaller images`;
}
