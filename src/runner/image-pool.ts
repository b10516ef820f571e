/**
 * The synthetic images of one level, drawn before its first request so no
 * request waits for a PNG encoder: request n's images are pool entries
 * n × perRequest … in turn. Every image is distinct until the pool's byte budget
 * is spent (then the pool is reused in turn); the pool depends only on the seed
 * and where the level starts, so a rerun sends the same bytes.
 */
import { type ImageInputs, LIMITS } from '../core/index.js';
import { syntheticImageUrl } from '../workload/index.js';

/** Bytes of data URLs one level holds at most (per client thread): drawing them costs ~5 ms per 512×512 image. */
export const IMAGE_POOL_BYTES = 8 * 1024 * 1024;

/** The level's pool: up to `requests` × perRequest images, within IMAGE_POOL_BYTES. */
export function imagePool(images: ImageInputs, seed: number, promptOffset: number, requests: number): string[] {
  const wanted = requests * images.perRequest;
  const pool: string[] = [];
  let bytes = 0;
  // At least one request's worth, whatever the budget: a request always carries all its images.
  while (pool.length < wanted && (bytes < IMAGE_POOL_BYTES || pool.length < images.perRequest)) {
    const url = syntheticImageUrl(images.width, images.height, seed, promptOffset * images.perRequest + pool.length);
    pool.push(url);
    bytes += url.length;
  }
  return pool;
}

/** The images of request `seq` of the level, taken from the pool in turn. */
export function imagesOf(pool: readonly string[], perRequest: number, seq: number): string[] {
  return Array.from({ length: perRequest }, (_, i) => pool[(seq * perRequest + i) % pool.length] as string);
}

/**
 * The refusal when one request's images alone pass the request-body limit
 * (checked on the first request's images, before anything is sent); null when they fit.
 */
export function imageBytesProblem(images: ImageInputs, seed: number): string | null {
  const bytes = imagePool(images, seed, 0, 1).reduce((sum, url) => sum + url.length, 0);
  if (bytes <= LIMITS.requestBodyBytes.max) return null;
  return `--images ${images.perRequest} of --image-size ${images.width}x${images.height} make ${bytes} bytes of data URLs in one request, above the limit of ${LIMITS.requestBodyBytes.max} ${LIMITS.requestBodyBytes.what}: send fewer or smaller images`;
}
