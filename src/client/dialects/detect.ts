/**
 * Engine detection: cheap GETs only (`/v1/models` plus each dialect's probe
 * paths such as `/version`, `/get_server_info`, `/info`, `/props`,
 * `/api/version`), all at once, each bounded in time and size. Never a
 * generation route and never `/health_generate` (it runs a generation). Each
 * dialect then reads the answers in a fixed order; the generic one always matches.
 */
import { Pool } from 'undici';
import { readBounded } from '../bounded-body.js';
import { resolveTarget } from '../target.js';
import type { Target } from '../types.js';
import { DETECTION_ORDER, dialects } from './registry.js';
import type { Dialect, ProbeEvidence, ProbeReply } from './types.js';

/** What detection found: the dialect to speak, the engine version, and why. */
export interface Detection {
  dialect: Dialect;
  version: string | null;
  evidence: string[];
  /** Every answer collected, by path (dialects read their context length from it). */
  replies: ProbeEvidence;
}

/** Every GET path detection fetches, `/v1/models` first. */
export function probePaths(): string[] {
  return [...new Set(['/v1/models', ...DETECTION_ORDER.flatMap((k) => dialects[k].probePaths)])];
}

function flatHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The dialect whose `identify` first recognises the evidence (generic at the latest). */
export function identify(evidence: ProbeEvidence): Detection {
  for (const kind of DETECTION_ORDER) {
    const dialect = dialects[kind];
    const found = dialect.identify(evidence);
    if (found !== null) return { dialect, ...found, replies: evidence };
  }
  return { dialect: dialects.generic, version: null, evidence: [], replies: evidence };
}

/**
 * GETs every probe path at `target` within `opts.timeoutMs` each (default 2 000 ms)
 * and identifies the engine. Never rejects: unanswered probes are simply missing.
 * @throws TypeError only when `target.baseUrl` is not an http(s) URL.
 */
export async function detectEngine(target: Target, opts: { timeoutMs?: number } = {}): Promise<Detection> {
  const t = resolveTarget(target);
  const timeoutMs = opts.timeoutMs ?? 2_000;
  const paths = probePaths();
  const pool = new Pool(t.origin, { connections: paths.length, connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const evidence = new Map<string, ProbeReply>();
  try {
    await Promise.all(
      paths.map(async (path) => {
        try {
          const res = await pool.request({
            path: `${t.prefix}${path}`,
            method: 'GET',
            headers: { accept: 'application/json', ...t.authHeaders },
            signal: AbortSignal.timeout(timeoutMs),
          });
          // An answer past the probe limit is dropped unread, like one that never came.
          const read = await readBounded(res.body);
          if (!read.ok) return;
          const text = read.text;
          evidence.set(path, { status: res.statusCode, headers: flatHeaders(res.headers), json: parseJson(text), text });
        } catch {
          // No answer in time, refused or reset: this probe is simply missing.
        }
      }),
    );
  } finally {
    await pool.destroy();
  }
  return identify(evidence);
}
