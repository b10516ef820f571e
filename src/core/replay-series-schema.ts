/**
 * Result-schema part for a trace replay's time series: one point per bucket
 * of the level. Its own module because the result schema holds it and the
 * utilisation math (which reads whole levels of that schema) fills it.
 */
import { z } from 'zod';

export const seriesPointSchema = z.object({
  /** Bucket start, s from the replay's first send. */
  atS: z.number(),
  arrivals: z.number().int().nonnegative(),
  /** Requests in flight at the bucket's middle. */
  inFlight: z.number().int().nonnegative(),
  /** Output tokens whose chunks arrived in the bucket, per second. */
  tokS: z.number().nonnegative(),
  /** Share of the requests ending in the bucket that met every SLO; null when none ended (or no SLO). */
  attainment: z.number().min(0).max(1).nullable(),
});
export type SeriesPoint = z.infer<typeof seriesPointSchema>;
