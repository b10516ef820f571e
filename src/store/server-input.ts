/**
 * A server as registered: one zod schema for `goodput servers add` and
 * `POST /api/servers`, whose messages name the field.
 */
import { z } from 'zod';
import { urlCredentialProblem } from '../core/index.js';

const optionalText = (what: string) =>
  z.string().trim().min(1, `${what} must not be empty`).max(200, `${what} is too long (at most 200 characters)`).optional();

export const serverInputSchema = z.object({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'name must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit')
    // An all-digit name would read as a server id (`servers remove 1`).
    .regex(/\D/, 'name must contain a letter or symbol, not only digits: it would read as a server id'),
  baseUrl: z
    .url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) URL, e.g. http://127.0.0.1:8000' })
    // As the sweep does: a key in the URL would be stored, listed and shown; it belongs in apiKey.
    .refine((u) => urlCredentialProblem(u) === null, { error: (i) => `baseUrl ${urlCredentialProblem(String(i.input))}` })
    .transform((u) => u.replace(/\/+$/, '')),
  /** Stored; never returned or shown. */
  apiKey: z.string().min(1, 'apiKey must not be empty').optional(),
  model: optionalText('model'),
  engine: optionalText('engine'),
  gpuLabel: optionalText('gpuLabel'),
  hourlyCostUsd: z.number({ error: 'hourlyCostUsd must be a number' }).nonnegative('hourlyCostUsd must not be negative').nullable().optional(),
});

export type ServerInput = z.output<typeof serverInputSchema>;
