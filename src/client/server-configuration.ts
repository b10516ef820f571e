/**
 * The server's configuration as it reports it itself, read once when a run
 * starts: the simulator's own `/sim/config` whatever engine it plays, else the
 * detected engine's configuration route (llama.cpp's `/props`, SGLang's
 * `/get_server_info`, TGI's `/info`, vLLM's model card), from the answers
 * detection already fetched within the probe limits. Only the settings core's
 * SERVER_SETTINGS names are kept, each a finite number, a flag or short
 * printable text; anything else is dropped, and a route that does not answer
 * with a JSON object leaves the configuration "not reported" with the reason.
 */
import { LIMITS, type ServerConfiguration, type ServerSetting, settingsOf } from '../core/index.js';
import { detectEngine } from './dialects/detect.js';
import { okJson } from './dialects/probe-helpers.js';
import type { ConfigurationReading } from './dialects/types.js';
import type { Target } from './types.js';

const TEXT = 120;

/** A setting's value as kept: a finite number, a flag, or printable text cut to 120 characters; else null. */
function settingValue(v: unknown): ServerSetting['value'] | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return null;
  const s = v
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, TEXT);
  return s === '' ? null : s;
}

/** The value at a dotted path inside `json`, own keys only. */
function at(json: Record<string, unknown>, name: string): unknown {
  let v: unknown = json;
  for (const key of name.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The settings `engine` reports in `json` (the object SERVER_SETTINGS' names are read in), bounded by the limits table. */
export function settingsIn(engine: string, json: Record<string, unknown>): ServerSetting[] {
  const out: ServerSetting[] = [];
  for (const d of settingsOf(engine)) {
    const value = settingValue(at(json, d.name));
    if (value !== null && out.length < LIMITS.serverSettings.max) out.push({ name: d.name, value });
  }
  return out;
}

const notReported = (engine: string | null, note: string): ServerConfiguration => ({ engine, source: null, settings: [], note });

/** The configuration in an answer already read (`json` null: the route gave no JSON object). */
export function configurationFrom(engine: string, route: string, json: Record<string, unknown> | null): ServerConfiguration {
  if (json === null) return notReported(engine, `not reported: GET ${route} gave no JSON object`);
  const settings = settingsIn(engine, json);
  return settings.length === 0
    ? notReported(engine, `not reported: GET ${route} named none of the settings goodput reads`)
    : { engine, source: `GET ${route}`, settings, note: null };
}

/** The simulator's configuration from its `/sim/config` answer (its profile is what its flags set). */
export const simConfiguration = (json: Record<string, unknown>): ServerConfiguration => configurationFrom('goodput-sim', '/sim/config', json);

/** The configuration the engine at `target` reports, from detection's bounded answers; never rejects. */
export async function engineConfiguration(target: Target, model: string): Promise<ServerConfiguration> {
  try {
    const found = await detectEngine(target);
    const reading: ConfigurationReading | undefined = found.dialect.configuration;
    if (reading === undefined) return notReported(found.dialect.engine, `not reported: ${found.dialect.label} has no route goodput reads a configuration from`);
    const answer = okJson(found.replies, reading.route);
    const json = answer === null ? null : reading.select === undefined ? answer : reading.select(answer, model);
    return configurationFrom(found.dialect.engine, reading.route, json);
  } catch {
    return notReported(null, 'not reported: the server could not be asked');
  }
}
