/**
 * `goodput sweep --images N --image-size WxH --audio-seconds S`: chat requests
 * that carry synthetic images and audio. Every flag are checked against the limits table before
 * anything runs; a refusal names the flag.
 */
import type { Command } from 'commander';
import type { AudioInputs, ImageInputs } from '../core/index.js';
import { audioSecondsProblem, imageSizeProblem } from '../workload/index.js';
import { badFlag, parseNumber } from './parse-flags.js';

export interface ImageFlags { images?: string; imageSize?: string; audioSeconds?: string }

export function addImageOptions(cmd: Command): Command {
  return cmd
    .option('--images <n>', 'chat: synthetic PNG images (drawn from --seed) sent with every request, as base64 data URLs after the prompt')
    .option('--image-size <WxH>', 'with --images: width × height of every image in pixels (default 512x512)')
    .option('--audio-seconds <s>', 'chat: a synthetic WAV clip of this many seconds (8 kHz mono, drawn from --seed) sent with every request as input_audio');
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
    if (f.imageSize !== undefined) throw badFlag('--image-size', 'needs --images (how many images each request carries)');
    return null;
  }
  if (endpoint !== 'chat') throw badFlag('--images', `images are sent in chat messages: use --endpoint chat, not ${endpoint}`);
  const perRequest = parseNumber('--images', f.images, { integer: true, min: 1, limit: 'imagesPerRequest' });
  return { perRequest, ...parseImageSize(f.imageSize ?? '512x512'), format: 'png' };
}

/** The spec's audio, null without --audio-seconds; refused with endpoints other than chat. */
export function audioFromFlags(f: ImageFlags, endpoint: string): AudioInputs | null {
  if (f.audioSeconds === undefined) return null;
  if (endpoint !== 'chat') throw badFlag('--audio-seconds', `audio is sent in chat messages: use --endpoint chat, not ${endpoint}`);
  const seconds = parseNumber('--audio-seconds', f.audioSeconds, { min: 0, exclusiveMin: true, limit: 'audioSeconds' });
  const problem = audioSecondsProblem(seconds);
  if (problem !== null) throw badFlag('--audio-seconds', problem.slice('--audio-seconds: '.length));
  return { seconds, format: 'wav' };
}
