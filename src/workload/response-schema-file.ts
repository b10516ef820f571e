/**
 * `--json-schema FILE`: the JSON schema every answer of a structured-output
 * workload must match, read and checked at entry (size bounded by the limits
 * table, compiled so an invalid schema is refused naming the file).
 */
import { basename } from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { LIMITS, compileAnswerSchema, limitMessage, responseSchemaSpecSchema, type ResponseSchemaSpec } from '../core/index.js';
import { WorkloadError } from './errors.js';

/**
 * Reads a schema file (a JSON Schema object, or OpenAI's `{name, schema}` form).
 * @throws WorkloadError naming the file and the problem.
 */
export async function loadResponseSchema(path: string, control: number): Promise<ResponseSchemaSpec> {
  const where = `JSON schema ${path}`;
  const size = await stat(path).then(
    (s) => s.size,
    (err: NodeJS.ErrnoException) => {
      throw new WorkloadError('unreadable', `${where}: cannot read (${err.code ?? err.message})`);
    },
  );
  if (size > LIMITS.responseSchemaBytes.max) throw new WorkloadError('length', `${where}: ${limitMessage('responseSchemaBytes', size, 'size')}`);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw new WorkloadError('bad-format', `${where}: not JSON`);
  }
  const wrapped = typeof data === 'object' && data !== null && 'schema' in data && typeof (data as { schema: unknown }).schema === 'object';
  const schema = wrapped ? (data as { schema: unknown }).schema : data;
  const given = wrapped ? (data as { name?: unknown }).name : undefined;
  const name = typeof given === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(given) ? given : 'answer';
  const parsed = responseSchemaSpecSchema.safeParse({ label: basename(path).slice(0, 256), name, schema, control });
  if (!parsed.success) throw new WorkloadError('bad-format', `${where}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const compiled = compileAnswerSchema(parsed.data.schema);
  if (!compiled.ok) throw new WorkloadError('bad-format', `${where}: ${compiled.message}`);
  return parsed.data;
}
