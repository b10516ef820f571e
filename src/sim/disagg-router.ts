/**
 * A router simulator in front of a prefill and a decode pool, as vLLM's
 * disaggregated-prefill proxy example does: each generation request goes to the
 * prefill pool for one token (its prompt computed there), then as it came to
 * the decode pool, whose answer (a stream or a whole body) is passed back as it
 * arrives. Its own `/metrics` counts what a router sees: requests, when their
 * first byte and their end passed through.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DisaggProfile } from './disagg-role.js';
import type { SimRuntime } from './generation-handler.js';
import { sendError } from './http-util.js';

/** Headers passed on to the pools: the warm-up mark (no faults for warm-ups), the request's id and trace, and its key. */
const FORWARDED = ['authorization', 'x-goodput-warmup', 'x-request-id', 'traceparent'] as const;

function forwarded(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of FORWARDED) {
    const v = req.headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

/** The prefill pool's request: the same prompt for one token, whole, with no length forced past it. */
function prefillBody(body: Record<string, unknown>): Record<string, unknown> {
  const { stream: _s, stream_options: _o, min_tokens: _m, ignore_eos: _i, ...rest } = body;
  const caps = ['max_tokens', 'max_completion_tokens', 'max_output_tokens'].filter((k) => k in rest);
  return { ...rest, ...Object.fromEntries((caps.length === 0 ? ['max_tokens'] : caps).map((k) => [k, 1])), stream: false };
}

/** Serves one generation request through the pools; every outcome is counted in the router's request_success. */
export async function proxyGeneration(
  rt: SimRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  body: unknown,
  arrivalMs: number,
): Promise<void> {
  const pools = rt.profile.disagg as DisaggProfile;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendError(res, 400, 'body: must be a JSON object', 'body');
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  const m = rt.metrics;
  const headers = forwarded(req);
  try {
    const prefill = await fetch(`${pools.prefillUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(prefillBody(body as Record<string, unknown>)),
      signal: abort.signal,
    });
    const prefilled = await prefill.text();
    if (!prefill.ok) {
      m.finished('error');
      res.writeHead(prefill.status, { 'content-type': prefill.headers.get('content-type') ?? 'application/json' });
      return void res.end(prefilled);
    }
    const decode = await fetch(`${pools.decodeUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal: abort.signal });
    res.writeHead(decode.status, { 'content-type': decode.headers.get('content-type') ?? 'application/json', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const reader = decode.body?.getReader();
    let first = true;
    for (let r = await reader?.read(); r !== undefined && !r.done; r = await reader?.read()) {
      if (first) m.ttft.observe((rt.now() - arrivalMs) / 1000);
      first = false;
      res.write(r.value);
    }
    res.end();
    m.e2e.observe((rt.now() - arrivalMs) / 1000);
    m.finished(decode.ok ? 'stop' : 'error');
  } catch (err) {
    m.finished(abort.signal.aborted ? 'abort' : 'error');
    if (!res.headersSent) sendError(res, 502, `router: a pool did not answer: ${(err as Error).message}`);
    else res.destroy();
  }
}
