/**
 * The limits every entry point shares (the CLI's flags, a contract, the page's
 * form, the API's body), defined once so they cannot drift apart.
 */
import { z } from 'zod';

/** At most this many levels in one run. */
export const MAX_LEVELS = 64;
/** The largest concurrency level the page and the API accept. */
export const MAX_CONCURRENCY = 4096;
/** The longest output the page and the API accept, tokens. */
export const MAX_OUTPUT_TOKENS = 32_768;
/** Below this output length per-request overhead hides real differences (a warning, not a refusal). */
export const SHORT_OUTPUT_TOKENS = 128;

/** Level values of a sweep or a contract, on the arrival kind's axis (streams, req/s or burst size). */
export const levelsSchema = z.array(z.number({ error: 'each level must be a number' }).positive('each level must be positive'))
  .min(1, 'give at least one level')
  .max(MAX_LEVELS, `at most ${MAX_LEVELS} levels`);
