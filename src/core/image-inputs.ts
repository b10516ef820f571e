/**
 * The images and audio every chat request of a run carries: how many images, of
 * what size, in what format; how long a clip. One schema for the sweep's spec, the result file and its levels,
 * bounded by the limits table.
 */
import { z } from 'zod';
import { limitedInt } from './limit-schema.js';
import { LIMITS, limitMessage } from './limits.js';

export const IMAGE_FORMATS = ['png', 'jpeg'] as const;
export const IMAGE_DELIVERIES = ['data', 'url'] as const;

export const imageInputsSchema = z
  .object({
    /** Images sent with every request's user message, after its text. */
    perRequest: limitedInt('imagesPerRequest', 'images per request'),
    width: limitedInt('imageSide', 'image width'),
    height: limitedInt('imageSide', 'image height'),
    /** Synthetic images drawn from the run's seed, as PNG or baseline JPEG files. */
    format: z.enum(IMAGE_FORMATS, { error: 'image format must be png or jpeg' }).default('png'),
    /** How the server gets them: inline as base64 data URLs, or as http URLs of goodput's own image server that the server fetches. */
    delivery: z.enum(IMAGE_DELIVERIES, { error: 'image delivery must be data or url' }).default('data'),
  })
  .strict();

/** Where a server off this machine reaches goodput's image server (which listens there): http://HOST:PORT, no path. */
export const imageBaseUrlSchema = z
  .url({ protocol: /^http$/, error: 'imageBaseUrl must be an http URL with a port, e.g. http://10.0.0.5:8090' })
  .refine((u) => new URL(u).port !== '' && new URL(u).pathname === '/', { error: 'imageBaseUrl must name a port and no path, e.g. http://10.0.0.5:8090' });

/**
 * The image files goodput's image server offered one level (images by URL): how
 * many, their bytes together, and the SHA-256 of their SHA-256s in turn
 * (imageFilesDigest). What identifies the images a server fetched without the
 * address it fetched them from; a reader redraws them from the contract's seed.
 */
export const imageFilesSchema = z
  .object({
    files: z
      .number()
      .int()
      .positive()
      .max((LIMITS.requestsPerLevel.max + LIMITS.warmupRequests.max) * LIMITS.imagesPerRequest.max),
    bytes: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 (64 lowercase hex digits)'),
  })
  .strict();

export type ImageFiles = z.infer<typeof imageFilesSchema>;

export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ImageDelivery = (typeof IMAGE_DELIVERIES)[number];

export type ImageInputs = z.infer<typeof imageInputsSchema>;

/** "2 images of 512×512 PNG per request" ("… JPEG by URL per request" when fetched): the words a table's caption and a level's label use. */
export function imageInputsLabel(images: ImageInputs): string {
  return `${images.perRequest} image${images.perRequest === 1 ? '' : 's'} of ${images.width}×${images.height} ${images.format.toUpperCase()}${images.delivery === 'url' ? ' by URL' : ''} per request`;
}

/** The audio clip every chat request of a run carries: 8 kHz, 16-bit mono WAV, sent inline as base64. */
export const AUDIO_SAMPLE_RATE = 8000;

export const audioInputsSchema = z
  .object({
    seconds: z
      .number({ error: 'audio seconds must be a number' })
      .positive('audio seconds must be positive')
      .max(LIMITS.audioSeconds.max, { error: (i) => limitMessage('audioSeconds', Number(i.input), 'audio seconds') }),
    format: z.literal('wav').default('wav'),
  })
  .strict();

export type AudioInputs = z.infer<typeof audioInputsSchema>;
