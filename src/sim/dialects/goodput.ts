/**
 * The simulator's own dialect (the default): vLLM's stream shapes with the
 * reasoning field chosen by the profile's `streamShape`, vLLM's nested errors,
 * and `/version` answering "goodput-sim <version>", so detection calls it a
 * generic OpenAI-compatible server.
 */
import { chatFormat, completionFormat } from '../response-format.js';
import { STREAM_SHAPES } from '../stream-shape.js';
import { jsonRoute } from './define.js';
import { nestedIntCode } from './error-shapes.js';
import { normalizeBody, PERMISSIVE } from './request-rules.js';
import type { SimDialect } from './types.js';

export const goodput: SimDialect = {
  kind: 'goodput',
  version: null,
  modelCard: () => ({}),
  headers: {},
  routes: { 'GET /version': jsonRoute((_p, simVersion) => ({ version: `goodput-sim ${simVersion}` })) },
  nativeRoutes: {},
  errorBody: nestedIntCode,
  normalize: (raw, endpoint) => normalizeBody(raw, endpoint, PERMISSIVE),
  chatFormat: (idn, profile) => chatFormat(idn, STREAM_SHAPES[profile.streamShape]),
  completionFormat: (idn) => completionFormat(idn),
  overload: null,
};
