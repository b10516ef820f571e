/**
 * `--rate-limit`: how a sweep paces its sends to a provider's rate limit, in
 * one schema (the spec, the result's run section) and one parser (the flag's
 * text). `rpm=N,tpm=M` paces to a budget given here; `from-headers` to the
 * limits the provider's own answers state.
 */
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';

const perMinute = (name: 'rateLimitRpm' | 'rateLimitTpm', label: string) =>
  z
    .number()
    .positive(`${label} must be positive`)
    .max(LIMITS[name].max, { error: (i) => limitMessage(name, Number(i.input), label) });

export const ratePacingSchema = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('budget'), rpm: perMinute('rateLimitRpm', 'rpm').nullable(), tpm: perMinute('rateLimitTpm', 'tpm').nullable() })
    .strict()
    .refine((b) => b.rpm !== null || b.tpm !== null, { error: 'a rate-limit budget needs rpm, tpm or both' }),
  z.object({ kind: z.literal('from-headers') }).strict(),
]);

export type RatePacing = z.output<typeof ratePacingSchema>;

/** "rpm=60,tpm=90000" or "from-headers" → the pacing, or the problem in words. */
export function parseRatePacing(text: string): { ok: true; pacing: RatePacing } | { ok: false; message: string } {
  const t = text.trim();
  if (t === 'from-headers') return { ok: true, pacing: { kind: 'from-headers' } };
  const budget: { rpm: number | null; tpm: number | null } = { rpm: null, tpm: null };
  for (const part of t.split(',')) {
    const m = /^\s*(rpm|tpm)\s*=\s*([0-9]+(?:\.[0-9]+)?)\s*$/.exec(part);
    if (m === null) return { ok: false, message: `'${part.slice(0, 40)}' is not rpm=N or tpm=M (give rpm=N,tpm=M or from-headers)` };
    const key = m[1] as 'rpm' | 'tpm';
    if (budget[key] !== null) return { ok: false, message: `${key} is given twice` };
    budget[key] = Number(m[2]);
  }
  const parsed = ratePacingSchema.safeParse({ kind: 'budget', ...budget });
  return parsed.success ? { ok: true, pacing: parsed.data } : { ok: false, message: parsed.error.issues[0]?.message ?? 'invalid' };
}
