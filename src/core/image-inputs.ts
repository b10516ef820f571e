/**
 * The images every chat request of a run carries: how many, of what size, in
 * what format. One schema for the sweep's spec, the result file and its levels,
 * bounded by the limits table.
 */
import { z } from 'zod';
import { limitedInt } from './limit-schema.js';

export const imageInputsSchema = z.object({
  /** Images sent with every request's user message, after its text. */
  perRequest: limitedInt('imagesPerRequest', 'images per request'),
  width: limitedInt('imageSide', 'image width'),
  height: limitedInt('imageSide', 'image height'),
  /** Synthetic images drawn from the run's seed, sent inline as base64 data URLs. */
  format: z.literal('png'),
}).strict();

export type ImageInputs = z.infer<typeof imageInputsSchema>;

/** "2 images of 512×512 PNG per request": the words a table's caption and a level's label use. */
export function imageInputsLabel(images: ImageInputs): string {
  return `${images.perRequest} image${images.perRequest === 1 ? '' : 's'} of ${images.width}×${images.height} ${images.format.toUpperCase()} per request`;
}
