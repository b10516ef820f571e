/**
 * Reading a JSON input file through its zod schema: a missing file, bad JSON
 * and each schema issue become one line naming the file and the field.
 */
import { readFile, stat } from 'node:fs/promises';
import type { z } from 'zod';
import { LIMITS } from '../core/index.js';
import { CliError, EXIT } from './exit-codes.js';

export type Read<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Refuses (exit 2) a file past the input-file limit before anyone reads it into memory; a missing file is left to the reader to report. */
export async function refuseOversized(path: string): Promise<void> {
  const size = await stat(path).then((s) => s.size, () => null);
  const max = LIMITS.inputFileBytes.max;
  if (size !== null && size > max) throw new CliError(EXIT.usage, `${path} is ${size} bytes, above the limit of ${max} ${LIMITS.inputFileBytes.what}`);
}

/** A file's text, refused past the input-file limit before it is read into memory. */
export async function readInputText(what: string, path: string): Promise<Read<string>> {
  try {
    const s = await stat(path);
    if (s.isDirectory()) return { ok: false, problems: [`${what}: ${path} is a directory, not a file`] };
    const max = LIMITS.inputFileBytes.max;
    if (s.size > max) return { ok: false, problems: [`${what}: ${path} is ${s.size} bytes, above the limit of ${max} ${LIMITS.inputFileBytes.what}`] };
    return { ok: true, value: await readFile(path, 'utf8') };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, problems: [`${what}: ${path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`}`] };
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
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.slice(0, 20).map((i) => `${what}: ${path}: ${i.path.join('.') || '(top level)'}: ${i.message}`) };
  return { ok: true, value: parsed.data };
}
