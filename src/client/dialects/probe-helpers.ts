/**
 * Small readers over detection evidence (the GET answers by path), so each
 * dialect's `identify` is a few declarative lines.
 */
import type { ProbeEvidence, ProbeReply } from './types.js';

/** The JSON of a 2xx answer at `path`, or null. */
export function okJson(e: ProbeEvidence, path: string): Record<string, unknown> | null {
  const r = e.get(path);
  if (r === undefined || r.status < 200 || r.status >= 300) return null;
  return typeof r.json === 'object' && r.json !== null && !Array.isArray(r.json) ? (r.json as Record<string, unknown>) : null;
}

/** A string field of the JSON at `path`, or null. */
export function stringAt(e: ProbeEvidence, path: string, key: string): string | null {
  const v = okJson(e, path)?.[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

/** `owned_by` of the first model in `/v1/models`, or null. */
export function ownedBy(e: ProbeEvidence): string | null {
  const data = okJson(e, '/v1/models')?.data;
  const first = Array.isArray(data) ? (data[0] as Record<string, unknown> | undefined) : undefined;
  return typeof first?.owned_by === 'string' ? first.owned_by : null;
}

/** A response header (lower-case name) from any collected answer, with the path it came from. */
export function header(e: ProbeEvidence, name: string): { value: string; path: string } | null {
  for (const [path, r] of e) {
    const v = (r as ProbeReply).headers[name];
    if (v !== undefined && v !== '') return { value: v, path };
  }
  return null;
}

/** Evidence line for an `owned_by` match. */
export const ownedByLine = (value: string): string => `GET /v1/models: owned_by "${value}"`;

/** Evidence line for a version read from `path`. */
export const versionLine = (path: string, key: string, value: string): string => `GET ${path}: ${key} "${value}"`;

/** A positive whole number, or null. */
function tokens(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
}

/** The `/v1/models` entry of `model` (the first one when it is not listed), or null. */
function modelEntry(e: ProbeEvidence, model: string): Record<string, unknown> | null {
  const json = okJson(e, '/v1/models');
  return json === null ? null : modelEntryOf(json, model);
}

/** The entry of `model` in a `/v1/models` answer (the first one when it is not listed), or null. */
export function modelEntryOf(json: Record<string, unknown>, model: string): Record<string, unknown> | null {
  const data = json.data;
  if (!Array.isArray(data)) return null;
  const entries = data.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null);
  return entries.find((d) => d.id === model) ?? entries[0] ?? null;
}

/** A context length read from the model's `/v1/models` entry at `path` (e.g. vLLM's `max_model_len`). */
export function modelsContext(path: readonly string[]): { source: string; read: (e: ProbeEvidence, model: string) => number | null } {
  return {
    source: `GET /v1/models: ${path.join('.')}`,
    read(e, model) {
      let v: unknown = modelEntry(e, model);
      for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
      return tokens(v);
    },
  };
}

/** A context length at `path` inside the JSON of `GET route`. */
export function routeContext(route: string, path: readonly string[], note = ''): { source: string; read: (e: ProbeEvidence) => number | null } {
  return {
    source: `GET ${route}: ${path.join('.')}${note}`,
    read(e) {
      let v: unknown = okJson(e, route);
      for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
      return tokens(v);
    },
  };
}

/** An identification from `owned_by`, with the version of `/version` when that route answers. */
export function byOwner(e: ProbeEvidence, owner: string): { version: string | null; evidence: string[] } | null {
  if (ownedBy(e) !== owner) return null;
  const version = stringAt(e, '/version', 'version');
  return { version, evidence: [ownedByLine(owner), ...(version === null ? [] : [versionLine('/version', 'version', version)])] };
}
