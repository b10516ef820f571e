/**
 * A real probe of a registered server: `GET /v1/models` through the client's
 * preflight. `running` when it answers with a model list; `stopped` when the
 * host refuses the connection (nothing listening); `unreachable` for anything
 * else (timeouts, DNS, TLS, auth, not OpenAI-compatible), with the reason.
 */
import { connect } from 'node:net';
import { preflight } from '../client/index.js';
import type { ServerStatus } from '../store/index.js';

export interface ProbeTarget {
  baseUrl: string;
  apiKey: string | null;
  /** The registered model; the status says whether the server serves it. */
  model: string | null;
}

/** True when a TCP connection to the URL's host and port is actively refused. */
function refused(baseUrl: string, timeoutMs: number): Promise<boolean> {
  const u = new URL(baseUrl);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port, timeout: timeoutMs });
    const done = (v: boolean) => {
      socket.destroy();
      resolve(v);
    };
    socket.once('connect', () => done(false));
    socket.once('timeout', () => done(false));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNREFUSED'));
  });
}

/**
 * Probes one server. Never rejects; the API key is never in the result.
 * @param timeoutMs per step, ms. Default 3000.
 */
export async function probeServer(t: ProbeTarget, timeoutMs = 3_000, now: () => Date = () => new Date()): Promise<ServerStatus> {
  const pre = await preflight({ baseUrl: t.baseUrl, apiKey: t.apiKey ?? undefined }, undefined, { timeoutMs });
  const checkedAt = now().toISOString();
  if (pre.ok) {
    if (t.model === null || pre.models.includes(t.model)) return { state: 'running', detail: null, model: t.model ?? pre.model, checkedAt };
    const serves = pre.models.slice(0, 10).join(', ');
    return { state: 'running', detail: `it does not serve the registered model "${t.model}"; it serves: ${serves}`, model: pre.model, checkedAt };
  }
  if (pre.reason === 'unreachable' && (await refused(t.baseUrl, timeoutMs))) {
    return { state: 'stopped', detail: `nothing is listening at ${new URL(t.baseUrl).host} (connection refused)`, model: null, checkedAt };
  }
  return { state: 'unreachable', detail: pre.message, model: null, checkedAt };
}

/** Why a sweep cannot start on a server with this status, or null when it can. */
export function notRunnableReason(name: string, registeredModel: string | null, s: ServerStatus): string | null {
  if (s.state !== 'running') {
    return `server "${name}" is ${s.state}: ${s.detail ?? 'it did not answer'} (checked ${s.checkedAt}). Nothing was run: a sweep against a server that is not serving would only measure zeros.`;
  }
  if (registeredModel !== null && s.model !== registeredModel)
    return `server "${name}" is running, but ${s.detail ?? `it does not serve "${registeredModel}"`}. Nothing was run.`;
  return null;
}
