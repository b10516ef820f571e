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

/** An identification from `owned_by`, with the version of `/version` when that route answers. */
export function byOwner(e: ProbeEvidence, owner: string): { version: string | null; evidence: string[] } | null {
  if (ownedBy(e) !== owner) return null;
  const version = stringAt(e, '/version', 'version');
  return { version, evidence: [ownedByLine(owner), ...(version === null ? [] : [versionLine('/version', 'version', version)])] };
}
