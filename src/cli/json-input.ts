/**
 * Reading a JSON input file through its zod schema: a missing file, bad JSON
 * and each schema issue become one line naming the file and the field.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';

export type Read<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export async function readJsonInput<T>(what: string, path: string, schema: z.ZodType<T>): Promise<Read<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, problems: [`${what}: ${path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`}`] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [`${what}: ${path} is not valid JSON (${(err as Error).message})`] };
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.slice(0, 20).map((i) => `${what}: ${path}: ${i.path.join('.') || '(top level)'}: ${i.message}`) };
  return { ok: true, value: parsed.data };
}
