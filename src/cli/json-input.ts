/**
 * Reading a JSON input file through its zod schema: a missing file, bad JSON
 * and each schema issue become one line naming the file and the field.
 */
import type { z } from 'zod';
import { LIMITS, RUN_KINDS, RUN_KIND_NAMES, type RunKindName, kindOfResult, refusalOf } from '../core/index.js';
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
  const reads = RUN_KIND_NAMES.filter((k) => RUN_KINDS[k].resultSchema === schema);
  const other = parsed.success || reads.length === 0 ? null : otherKindRefusal(data, reads);
  if (other !== null) return { ok: false, problems: [`${what}: ${path}: ${other}`] };
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.slice(0, 20).map((i) => `${what}: ${path}: ${i.path.join('.') || '(top level)'}: ${i.message}`) };
  return { ok: true, value: parsed.data };
}

/**
 * Why a reader of results of the kinds `reads` refuses `data`, a result of
 * another kind, in the capability matrix's words (the reason it gives for a
 * result file given to compare; the matrix's tests check every other reader
 * of result files says the same); null when `data` is of a kind it reads, or
 * no result at all (its schema then names what is wrong).
 */
export function otherKindRefusal(data: unknown, reads: readonly RunKindName[]): string | null {
  const run = (data as { run?: unknown } | null)?.run;
  if (typeof run !== 'object' || run === null) return null;
  const kind = kindOfResult({ run });
  // Text generation is also what a result of no known endpoint reads as: its own schema says what is wrong with it.
  return kind === 'text' || reads.includes(kind) ? null : refusalOf(kind, 'compare', { endpoint: String((run as { endpoint?: unknown }).endpoint) });
}
