/**
 * Builds a {@link SimDialect} from an engine's data: identity, error body,
 * request rules, stream style(s) and overload answer. Formats and
 * normalisation come from the shared, data-driven implementations.
 */
import type { SimProfile } from '../profile-schema.js';
import { openAiFormat } from './openai-format.js';
import type { OpenAiStyle } from './openai-style.js';
import { normalizeBody, type RequestRules } from './request-rules.js';
import type { DialectRoute, SimDialect } from './types.js';

/** An engine's declarations. */
export interface SimDialectDef extends Omit<SimDialect, 'normalize' | 'chatFormat' | 'completionFormat' | 'nativeRoutes'> {
  rules: RequestRules;
  chatStyle: OpenAiStyle;
  /** Defaults to `chatStyle`. */
  completionStyle?: OpenAiStyle;
  nativeRoutes?: SimDialect['nativeRoutes'];
}

export function defineSimDialect(def: SimDialectDef): SimDialect {
  const { rules, chatStyle, completionStyle, nativeRoutes, ...facts } = def;
  return {
    ...facts,
    nativeRoutes: nativeRoutes ?? {},
    normalize: (raw, endpoint) => normalizeBody(raw, endpoint, rules),
    chatFormat: (idn) => openAiFormat('chat', idn, chatStyle),
    completionFormat: (idn) => openAiFormat('completion', idn, completionStyle ?? chatStyle),
  };
}

/** A GET route answering JSON built from the profile. */
export function jsonRoute(build: (profile: SimProfile, simVersion: string) => unknown): DialectRoute {
  return (profile, simVersion) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(build(profile, simVersion)) });
}

/** `/version` answering `{"version": …}` (vLLM, TRT-LLM). */
export const versionRoute = (version: string): DialectRoute => jsonRoute(() => ({ version }));
