/**
 * A modality claim corroborated by the records: a contract that says every
 * request carried images or audio is only believed when each successful
 * measured record shows it. Two marks, each where the evidence has it:
 *
 * - bytes: media sent inline are in the request body, so a record's
 *   `requestBodyBytes` is at least half the base64 bytes of the media goodput
 *   draws for one request of this workload (synthetic images of one size and
 *   format vary in size far less than that; a clip's size is exact);
 * - tokens: where the server counted the prompt (`promptTokens`), its count
 *   rises with the media above the workload's text-only prompt length (as the
 *   run's tokenizer counted it; half of it when that count was approximate):
 *   by one token per 56×56 pixels of each image, at most 64 an image, and 2 a
 *   second of audio, which every served vision and audio encoder exceeds.
 *
 * A record of a media run with neither mark (no body size, or media by URL;
 * no server prompt count) is refused: nothing shows the media were sent.
 */
import type { Contract, StoredRecord } from '../contract/index.js';
import { imageMime, syntheticImage, syntheticWav } from '../workload/index.js';

/** Pixels per side one image token covers at most (Gemma 3 gives an 896-pixel image 256 tokens; finer encoders give more). */
export const IMAGE_TILE_PIXELS = 56;
/** An image's token floor never asks more than this many (encoders that resize every image give a fixed count). */
export const IMAGE_TOKENS_FLOOR_MAX = 64;
/** The fewest prompt tokens a second of audio adds (audio encoders give 6 to 50 a second). */
export const AUDIO_TOKENS_PER_S_MIN = 2;

export interface MediaClaim {
  /** The claim in the receipt's words. */
  what: string;
  /** Fewest body bytes a request carrying the media inline can have; null when nothing is inline (images by URL). */
  minBodyBytes: number | null;
  /** Fewest prompt tokens the server can count; null when the workload fixes no prompt length. */
  minPromptTokens: number | null;
}

/** The media a contract claims for every request, or null for text alone. */
export function mediaClaim(c: Contract, textExact: boolean): MediaClaim | null {
  const images = (c.workload.images ?? []).find((i) => i !== null) ?? null;
  const audio = c.workload.audio ?? null;
  if (images === null && audio === null) return null;
  const seed = c.decoding.seed;
  let inline = 0;
  if (images !== null && images.delivery !== 'url') {
    const one = syntheticImage(images.format, images.width, images.height, seed, 0);
    inline += images.perRequest * `data:${imageMime(images.format)};base64,${one.toString('base64')}`.length;
  }
  if (audio !== null) inline += syntheticWav(audio.seconds, seed, 0).toString('base64').length;
  const p = c.workload.prompts;
  const tokens = p.kind === 'synthetic' ? Math.min(...(Array.isArray(p.tokens) ? p.tokens : [p.tokens])) : null;
  const text = tokens === null ? null : textExact ? tokens : Math.floor(tokens / 2);
  const tiles = images === null ? 0 : Math.ceil(images.width / IMAGE_TILE_PIXELS) * Math.ceil(images.height / IMAGE_TILE_PIXELS);
  const rise = (images?.perRequest ?? 0) * Math.min(tiles, IMAGE_TOKENS_FLOOR_MAX) + Math.ceil((audio?.seconds ?? 0) * AUDIO_TOKENS_PER_S_MIN);
  const what = [
    ...(images === null ? [] : [`${images.perRequest} × ${images.width}×${images.height} ${images.format.toUpperCase()}`]),
    ...(audio === null ? [] : [`${audio.seconds} s of audio`]),
  ].join(' and ');
  return {
    what,
    minBodyBytes: inline === 0 ? null : Math.floor(inline / 2),
    minPromptTokens: text === null ? null : text + rise,
  };
}

/** Why one record does not show the claimed media, or null when it does (or it was no successful measured request). */
export function mediaProblem(r: StoredRecord, claim: MediaClaim): string | null {
  if (r.warmup || r.outcome.kind !== 'ok') return null;
  const bytes = claim.minBodyBytes === null ? undefined : r.requestBodyBytes;
  const tokens = claim.minPromptTokens === null ? null : r.promptTokens;
  if (bytes !== undefined && claim.minBodyBytes !== null && bytes < claim.minBodyBytes)
    return `sent a ${bytes}-byte body; ${claim.what} per request, sent inline, take at least ${claim.minBodyBytes} bytes`;
  if (tokens !== null && claim.minPromptTokens !== null && tokens < claim.minPromptTokens)
    return `was counted ${tokens} prompt tokens by the server; with ${claim.what} per request it counts at least ${claim.minPromptTokens} (the text prompt and the media's floor)`;
  if (bytes === undefined && tokens === null)
    return `records neither the body it sent nor the server's prompt count; nothing shows the ${claim.what} claimed per request were sent`;
  return null;
}
