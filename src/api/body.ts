/** Reads a JSON body through its schema; a bad body is a 400 naming the field. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from './api-error.js';

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let data: unknown;
  try {
    data = await c.req.json();
  } catch {
    throw new ApiError('bad-request', 'body: must be JSON (Content-Type: application/json)', 'body');
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys = issue?.code === 'unrecognized_keys' ? issue.keys : [];
  const field = issue?.path.length ? issue.path.join('.') : keys[0] ?? 'body';
  throw new ApiError('bad-request', `${field}: ${issue?.message ?? 'invalid'}`, field);
}

/** A positive integer path parameter, or a 400 naming it. */
export function idParam(c: Context, name = 'id'): number {
  const text = c.req.param(name) ?? '';
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new ApiError('bad-request', `${name}: '${text}' is not a positive integer`, name);
  return Number(text);
}
