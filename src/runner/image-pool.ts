/**
 * The synthetic images and audio clips of one level, drawn before its first
 * request so no request waits for an encoder: request n's images are pool entries
 * n × perRequest … in turn. Every image is distinct until the pool's byte budget
 * is spent (then the pool is reused in turn); the pool depends only on the seed
 * and where the level starts, so a rerun sends the same bytes.
 */
import { type AudioInputs, type ImageInputs, LIMITS } from '../core/index.js';
import { syntheticImageUrl, syntheticWav } from '../workload/index.js';

/** Bytes of data URLs (or base64 clips) one level holds at most (per client thread): drawing them costs ~5 ms per 512×512 image. */
export const IMAGE_POOL_BYTES = 8 * 1024 * 1024;

/** Draws `wanted` items in turn until the byte budget is spent, and never fewer than `minimum`. */
function drawPool(wanted: number, minimum: number, draw: (i: number) => string): string[] {
  const pool: string[] = [];
  let bytes = 0;
  while (pool.length < wanted && (bytes < IMAGE_POOL_BYTES || pool.length < minimum)) {
    const item = draw(pool.length);
    pool.push(item);
    bytes += item.length;
  }
  return pool;
}

/** The level's images: up to `requests` × perRequest, within IMAGE_POOL_BYTES (at least one request's worth). */
export function imagePool(images: ImageInputs, seed: number, promptOffset: number, requests: number): string[] {
  return drawPool(requests * images.perRequest, images.perRequest, (i) => syntheticImageUrl(images.width, images.height, seed, promptOffset * images.perRequest + i));
}

/** The level's audio clips as base64 WAV: one per request, within the same budget (at least one). */
export function audioPool(audio: AudioInputs, seed: number, promptOffset: number, requests: number): string[] {
  return drawPool(requests, 1, (i) => syntheticWav(audio.seconds, seed, promptOffset + i).toString('base64'));
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
  const imageBytes = images === null ? 0 : imagePool(images, seed, 0, 1).reduce((sum, url) => sum + url.length, 0);
  const audioBytes = audio === null ? 0 : (audioPool(audio, seed, 0, 1)[0]?.length ?? 0);
  const bytes = imageBytes + audioBytes;
  if (bytes <= LIMITS.requestBodyBytes.max) return null;
  const what = [images === null ? '' : `--images ${images.perRequest} of --image-size ${images.width}x${images.height}`, audio === null ? '' : `--audio-seconds ${audio.seconds}`].filter(Boolean).join(' and ');
  return `${what} make ${bytes} bytes of data URLs in one request, above the limit of ${LIMITS.requestBodyBytes.max} ${LIMITS.requestBodyBytes.what}: send fewer or smaller images`;
}
