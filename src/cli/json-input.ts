/**
 * Reading a JSON input file through its zod schema: a missing file, bad JSON
 * and each schema issue become one line naming the file and the field.
 */
import type { z } from 'zod';
import { LIMITS } from '../core/index.js';
import { FileRefusal, readRegularText } from '../files/index.js';

/** The input-file row of the limits table, as the file reader takes it. */
export const INPUT_FILE = { bytes: LIMITS.inputFileBytes.max, what: LIMITS.inputFileBytes.what };

export type Read<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** A file's text, refused past the input-file limit before it is read into memory. */
export async function readInputText(what: string, path: string): Promise<Read<string>> {
  try {
    return { ok: true, value: await readRegularText(path, INPUT_FILE) };
  } catch (err) {
    if (err instanceof FileRefusal) return { ok: false, problems: [`${what}: ${err.message}`] };
    return { ok: false, problems: [`${what}: ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`] };
  }
}

export async function readJsonInput<T>(what: string, path: string, schema: z.ZodType<T>): Promise<Read<T>> {
  const read = await readInputText(what, path);
  if (!read.ok) return read;
  const text = read.value;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, problems: [`${what}: ${path} is not valid JSON (${(err as Error).message})`] };
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.slice(0, 20).map((i) => `${what}: ${path}: ${i.path.join('.') || '(top level)'}: ${i.message}`) };
  return { ok: true, value: parsed.data };
}
