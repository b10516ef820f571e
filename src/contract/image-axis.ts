/**
 * A contract's images: one setting every request carries, or a list of them
 * (an axis of the workload matrix: a cell per setting, 'none' for a cell
 * without images), each checked by the core image schema with its own path.
 */
import { z } from 'zod';
import { type ImageInputs, LIMITS, imageInputsSchema, limitMessage } from '../core/index.js';

/** `workload.images` as written (one object, or a list of objects and 'none') → the list of cells' settings (null: none). */
export const imageAxisSchema = z.unknown().transform((given, ctx): Array<ImageInputs | null> => {
  const many = Array.isArray(given);
  const list: unknown[] = many ? given : [given];
  if (many && list.length === 0) {
    ctx.issues.push({ code: 'custom', message: 'images must list at least one setting', input: given });
    return [];
  }
  if (list.length > LIMITS.imageSets.max) {
    ctx.issues.push({ code: 'custom', message: limitMessage('imageSets', list.length, 'images'), input: given });
    return [];
  }
  return list.map((item, i) => {
    if (item === 'none' && many) return null;
    const parsed = imageInputsSchema.safeParse(item);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      ctx.issues.push({ ...issue, path: many ? [i, ...issue.path] : issue.path, input: item } as (typeof ctx.issues)[number]);
    return null;
  });
});
