/**
 * Several LoRA adapters in one run (`--lora name=weight,…`): the mix as the
 * command line writes it, its schema (the spec's and the result's), and which
 * adapter each request names as its model. The choice is a pure function of
 * the seed, the level and the request's sequence number, so every client
 * thread and worker draws the same adapter for the same request, a rerun with
 * the seed draws the same again, and the records alone say what was sent.
 */
import { z } from 'zod';
import { LIMITS, limitMessage } from './limits.js';
import { hashString53 } from './random.js';

/** One adapter of the mix: the model id a request names, and its share of the requests by weight. */
export interface LoraAdapter {
  name: string;
  weight: number;
}

/**
 * An adapter's name: visible ASCII without `,` or `=` (the flag's separators), so it
 * prints as it is sent and cannot carry a terminal's control sequences.
 */
export const loraNameSchema = z
  .string()
  .min(1, 'an adapter name must not be empty')
  .max(LIMITS.loraNameChars.max, { error: (i) => limitMessage('loraNameChars', String(i.input).length, 'adapter name length') })
  .regex(/^[\x21-\x2b\x2d-\x3c\x3e-\x7e]+$/, 'an adapter name is visible ASCII without spaces, commas or =');

export const loraMixSchema = z
  .array(
    z
      .object({
        name: loraNameSchema,
        weight: z
          .number()
          .positive('an adapter weight must be above 0')
          .max(LIMITS.loraWeight.max, { error: (i) => limitMessage('loraWeight', Number(i.input), 'adapter weight') }),
      })
      .strict(),
  )
  .min(1, 'name at least one adapter')
  .max(LIMITS.loraAdapters.max, { error: (i) => limitMessage('loraAdapters', Array.isArray(i.input) ? i.input.length : 0, 'adapters') })
  .superRefine((mix, ctx) => {
    const seen = new Set<string>();
    for (const [i, a] of mix.entries()) {
      if (seen.has(a.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${a.name} is named twice; name each adapter once` });
      seen.add(a.name);
    }
  });

/** `a=3,b=1` → the mix, or the sentence that names what is wrong with it. */
export function parseLoraMix(text: string): { ok: true; mix: LoraAdapter[] } | { ok: false; message: string } {
  const parts = text.split(',');
  if (parts.length > LIMITS.loraAdapters.max) return { ok: false, message: limitMessage('loraAdapters', parts.length, 'adapters') };
  const mix: LoraAdapter[] = [];
  for (const [i, part] of parts.entries()) {
    const m = /^([^=]*)=(.*)$/.exec(part.trim());
    if (m === null) return { ok: false, message: `adapter ${i + 1} is not name=weight (e.g. sql-lora=3,chat-lora=1)` };
    const weightText = (m[2] as string).trim();
    const weight = /^\d+(\.\d+)?$/.test(weightText) ? Number(weightText) : Number.NaN;
    if (!Number.isFinite(weight)) return { ok: false, message: `adapter ${i + 1}: its weight is not a number above 0 (e.g. sql-lora=3)` };
    mix.push({ name: (m[1] as string).trim(), weight });
  }
  const checked = loraMixSchema.safeParse(mix);
  if (checked.success) return { ok: true, mix: checked.data };
  const issue = checked.error.issues[0];
  const at = issue?.path[0];
  // A weight's issue comes after its name passed: the name is then safe to repeat.
  const where = typeof at !== 'number' ? '' : issue?.path[1] === 'weight' ? `adapter ${mix[at]?.name ?? ''}: ` : `adapter ${at + 1}: `;
  return { ok: false, message: `${where}${issue?.message ?? 'not a mix of adapters'}` };
}

/** The golden ratio's fractional part: successive multiples spread over [0, 1) as evenly as any sequence can. */
const GOLDEN = 0.6180339887498949;

/**
 * The adapter request `seq` of level `level` names. A Weyl sequence from a start
 * drawn from the seed and the level: over any run of n requests each adapter's
 * count stays within a few requests of n × its share (independent draws would
 * wander by √n), with no fixed pattern a server's scheduler could fall into.
 */
export function adapterAt(mix: readonly LoraAdapter[], seed: number, level: number, seq: number): string {
  const start = hashString53(`lora ${level}`, seed) / 2 ** 53;
  const u = (start + seq * GOLDEN) % 1;
  let total = 0;
  for (const a of mix) total += a.weight;
  let edge = 0;
  for (const a of mix) {
    edge += a.weight / total;
    if (u < edge) return a.name;
  }
  // Rounding may leave u at the last edge: it belongs to the last adapter.
  return (mix[mix.length - 1] as LoraAdapter).name;
}
