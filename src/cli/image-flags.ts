/**
 * `goodput sweep --images N --image-size WxH --image-format F --image-delivery D --audio-seconds S`: chat requests
 * that carry synthetic images and audio. Every flag are checked against the limits table before
 * anything runs; a refusal names the flag.
 */
import type { Command } from 'commander';
import { type AudioInputs, IMAGE_DELIVERIES, IMAGE_FORMATS, type ImageInputs, optionDefault } from '../core/index.js';
import { audioSecondsProblem, imageSizeProblem } from '../workload/index.js';
import { badFlag } from './parse-flags.js';
import { addRunOptions, flagNumber } from './option-flags.js';
import type { FlagsOf } from './sweep-flags.js';

export type ImageFlags = FlagsOf<'media'>;

/** Adds the image and audio flags, as the option catalogue declares them. */
export function addImageOptions(cmd: Command): Command {
  return addRunOptions(cmd, 'media');
}

/** "512x512" → [512, 512], or a CliError naming --image-size. */
export function parseImageSize(text: string): { width: number; height: number } {
  const m = /^\s*(\d{1,10})\s*[x×]\s*(\d{1,10})\s*$/i.exec(text);
  if (m === null) throw badFlag('--image-size', `'${text}' is not WIDTHxHEIGHT in pixels, e.g. 512x512`);
  const width = Number(m[1]);
  const height = Number(m[2]);
  const problem = imageSizeProblem(width, height);
  if (problem !== null) throw badFlag('--image-size', problem.slice('--image-size: '.length));
  return { width, height };
}

/** The spec's images, null without --images; refused with endpoints other than chat. */
export function imagesFromFlags(f: ImageFlags, endpoint: string): ImageInputs | null {
  if (f.images === undefined) {
    for (const [flag, v] of [
      ['--image-size', f.imageSize],
      ['--image-format', f.imageFormat],
      ['--image-delivery', f.imageDelivery],
    ] as const) {
      if (v !== undefined) throw badFlag(flag, 'needs --images (how many images each request carries)');
    }
    return null;
  }
  if (endpoint !== 'chat' && endpoint !== 'responses')
    throw badFlag('--images', `images are sent in chat messages: use --endpoint chat or responses, not ${endpoint}`);
  const perRequest = flagNumber('images', f.images);
  const format = f.imageFormat ?? optionDefault('imageFormat');
  if (!isOneOf(IMAGE_FORMATS, format)) throw badFlag('--image-format', `'${format}' is not one of ${IMAGE_FORMATS.join(', ')}`);
  const delivery = f.imageDelivery ?? optionDefault('imageDelivery');
  if (!isOneOf(IMAGE_DELIVERIES, delivery)) throw badFlag('--image-delivery', `'${delivery}' is not one of ${IMAGE_DELIVERIES.join(', ')}`);
  return { perRequest, ...parseImageSize(f.imageSize ?? optionDefault('imageSize')), format, delivery };
}

const isOneOf = <T extends string>(choices: readonly T[], v: string): v is T => (choices as readonly string[]).includes(v);

/** Where the server reaches goodput's image server (--image-base-url), null by default; only with --image-delivery url. */
export function imageBaseUrlFromFlags(f: ImageFlags, images: ImageInputs | null): string | null {
  if (f.imageBaseUrl === undefined) return null;
  if (images?.delivery !== 'url') throw badFlag('--image-base-url', 'applies to --image-delivery url (images the server fetches) alone');
  let u: URL;
  try {
    u = new URL(f.imageBaseUrl);
  } catch {
    throw badFlag('--image-base-url', `'${f.imageBaseUrl.slice(0, 200)}' is not a URL, e.g. http://10.0.0.5:8090`);
  }
  if (u.protocol !== 'http:' || u.port === '' || u.pathname !== '/' || u.search !== '' || u.username !== '') {
    throw badFlag(
      '--image-base-url',
      `'${f.imageBaseUrl.slice(0, 200)}' must be http://HOST:PORT, no path: the address goodput's image server listens on and the server fetches from`,
    );
  }
  return u.origin;
}

/** The spec's audio, null without --audio-seconds; refused with endpoints other than chat. */
export function audioFromFlags(f: ImageFlags, endpoint: string): AudioInputs | null {
  if (f.audioSeconds === undefined) return null;
  if (endpoint !== 'chat' && endpoint !== 'responses')
    throw badFlag('--audio-seconds', `audio is sent in chat messages: use --endpoint chat or responses, not ${endpoint}`);
  const seconds = flagNumber('audioSeconds', f.audioSeconds);
  const problem = audioSecondsProblem(seconds);
  if (problem !== null) throw badFlag('--audio-seconds', problem.slice('--audio-seconds: '.length));
  return { seconds, format: 'wav' };
}
