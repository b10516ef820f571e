/**
 * What the server says about itself, collected when a run starts and kept in
 * its result as the server's account: the `/v1/models` entries, llama.cpp's
 * `/props` (model file and context), `/version`, the `server` header, and the
 * goodput simulator's `/sim/config`, and the server's configuration as it
 * reports it (client's engineConfiguration). Only what a public page may show is
 * kept (a model file's base name, never its path); every answer is one
 * bounded request with a timeout, and a route that is absent adds nothing.
 */
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { engineConfiguration, readBounded, serverRoot, simConfiguration } from '../client/index.js';
import { type ServerAccount, canonicalJson } from '../core/index.js';

const TIMEOUT_MS = 3000;
const TEXT = 120;

/** A printable, bounded string from the server, or null. */
const text = (v: unknown): string | null => {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const s = String(v)
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, TEXT);
  return s === '' ? null : s;
};
/** The last path segment: a model file's name without the folder it lies in. */
const baseName = (v: unknown): string | null => {
  const s =
    typeof v === 'string'
      ? v
          .split(/[\\/]/)
          .filter((x) => x !== '')
          .at(-1)
      : undefined;
  return text(s);
};

async function getJson(base: string, path: string, apiKey: string | undefined): Promise<{ json: Record<string, unknown> | null; server: string | null }> {
  try {
    const res = await request(`${base}${path}`, {
      headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const header = res.headers.server;
    const server = text(Array.isArray(header) ? header[0] : header);
    const body = await readBounded(res.body);
    if (res.statusCode < 200 || res.statusCode >= 300 || !body.ok) return { json: null, server };
    const value: unknown = JSON.parse(body.text);
    return { json: value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null, server };
  } catch {
    return { json: null, server: null };
  }
}

/** The server's account of itself at `baseUrl`; `model` picks its model card where the configuration is read there (vLLM). */
export async function collectServerAccount(baseUrl: string, apiKey: string | undefined, model = ''): Promise<ServerAccount> {
  const base = serverRoot(baseUrl);
  const models = await getJson(base, '/v1/models', apiKey);
  const data = Array.isArray(models.json?.data) ? (models.json.data as unknown[]).slice(0, 16) : [];
  const entries = data.flatMap((e) => {
    const o = e !== null && typeof e === 'object' ? (e as Record<string, unknown>) : null;
    const id = text(o?.id);
    return o === null || id === null ? [] : [{ id, ownedBy: text(o.owned_by), maxModelLen: typeof o.max_model_len === 'number' ? o.max_model_len : null }];
  });
  const props = (await getJson(base, '/props', apiKey)).json;
  const settings = props?.default_generation_settings;
  const nCtx = settings !== null && typeof settings === 'object' ? (settings as Record<string, unknown>).n_ctx : undefined;
  const version = (await getJson(base, '/version', apiKey)).json;
  const sim = (await getJson(base, '/sim/config', apiKey)).json;
  const isSim = sim !== null && sim.simulator === 'goodput-sim';
  // The simulator's own account decides, whatever engine it plays; else the engine's own configuration route.
  const configuration = isSim ? simConfiguration(sim) : await engineConfiguration({ baseUrl, apiKey }, model);
  return {
    models: entries,
    server: models.server,
    version: text(version?.version),
    props:
      props === null ? null : { modelFile: baseName(props.model_path), contextTokens: typeof nCtx === 'number' ? nCtx : null, build: text(props.build_info) },
    simulator:
      sim === null || !isSim
        ? null
        : {
            version: text(sim.version),
            dialect: text(sim.dialect),
            configSha256: createHash('sha256')
              .update(canonicalJson(sim.profile ?? null))
              .digest('hex'),
          },
    configuration,
  };
}
