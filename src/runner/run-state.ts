/**
 * What a sweep sets for itself once it runs, kept apart from the spec it was
 * asked (SweepSpec, which the CLI, the API and contracts write). It travels
 * beside the spec to wherever a level is sent from: this thread, a client
 * thread, a worker process (in its share job).
 */
import { z } from 'zod';

export const runStateSchema = z
  .object({
    /** Once the sweep's image server listens: the URL prefix (with its secret) the level's image URLs start with; null without one. */
    imagesServedAt: z.string().nullable(),
  })
  .strict();

export type RunState = z.infer<typeof runStateSchema>;

/** A run that set nothing for itself: images, if any, go inline. */
export const NO_RUN_STATE: RunState = Object.freeze({ imagesServedAt: null });
