/**
 * Reads a JSON body through its schema; a bad body is a 400 naming the field.
 * A body must say it is JSON (415 otherwise: a form post is never read as
 * one), and no string or key in it may hold a NUL byte (PostgreSQL cannot
 * store one; a 400 names where it is).
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { MAX_ROW_ID } from '../store/index.js';
import { ApiError } from './api-error.js';

/** The path of the first string or key holding a NUL byte, or null. Bounded by the body's own size. */
export function nulPath(value: unknown, path: Array<string | number> = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'body' : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = nulPath(v, [...path, i]);
      if (found !== null) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return [...path, k.replaceAll('\u0000', '\\0')].join('.');
      const found = nulPath(v, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}

export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError('unsupported-media-type', `body: must be sent as Content-Type: application/json (got ${type ? `"${type}"` : 'none'})`, 'body');
  }
  let data: unknown;
  try {
    data = await c.req.json();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('bad-request', 'body: must be JSON (Content-Type: application/json)', 'body');
  }
  const nul = nulPath(data);
  if (nul !== null) throw new ApiError('bad-request', `${nul}: must not contain a NUL byte`, nul);
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys = issue?.code === 'unrecognized_keys' ? issue.keys : [];
  const field = issue?.path.length ? issue.path.join('.') : (keys[0] ?? 'body');
  throw new ApiError('bad-request', `${field}: ${issue?.message ?? 'invalid'}`, field);
}

/**
 * A positive integer path parameter: 400 when it is not one, 404 when it is
 * past the largest id the store can hold (no such row can exist), before any SQL.
 */
export function idParam(c: Context, name = 'id'): number {
  const text = c.req.param(name) ?? '';
  if (!/^\d{1,30}$/.test(text) || Number(text) < 1) throw new ApiError('bad-request', `${name}: '${text.slice(0, 40)}' is not a positive integer`, name);
  const id = Number(text);
  if (id > MAX_ROW_ID) throw new ApiError('not-found', `${name}: no run has id ${text} (ids go up to ${MAX_ROW_ID})`, name);
  return id;
}
