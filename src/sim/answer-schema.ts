/**
 * The JSON schema a chat request asks its answer to match, in any of the forms
 * engines read: OpenAI's `response_format` `json_schema` (vLLM, SGLang,
 * llama.cpp, TRT-LLM, LMDeploy, Ollama `/v1`), TGI's `{type: json, value}`,
 * llama.cpp's `{type: json_object, schema}` and top-level `json_schema`, and
 * vLLM's `guided_json` / `structured_outputs.json`. The simulator then answers
 * with JSON generated from it, invalid or cut at the profile's shares.
 */
import type { SimProfile } from './profile-schema.js';
import { hashInts } from './random.js';
import { argumentPieces, argumentsText, type ArgumentsQuality } from './tool-arguments.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answer schema of a chat body, or null when it asks for none. */
export function answerSchemaOf(body: Obj): Obj | null {
  const rf = body.response_format;
  if (isObj(rf)) {
    if (rf.type === 'json_schema' && isObj(rf.json_schema) && isObj(rf.json_schema.schema)) return rf.json_schema.schema;
    if (rf.type === 'json' && isObj(rf.value)) return rf.value;
    if (rf.type === 'json_object' && isObj(rf.schema)) return rf.schema;
    if (rf.type === 'json_object') return { type: 'object' };
  }
  if (isObj(body.json_schema)) return body.json_schema;
  if (isObj(body.guided_json)) return body.guided_json;
  const so = body.structured_outputs;
  return isObj(so) && isObj(so.json) ? so.json : null;
}

/** True when index `i` is one of the evenly spread `share` of indices (offset `phase` in 0..1). */
const spread = (i: number, share: number, phase: number): boolean => Math.floor((i + 1) * share + phase) > Math.floor(i * share + phase);

/** The answer of request `requestIndex` to `schema` (the server's `answerIndex`-th JSON answer), one piece per output token. */
export function answerPieces(profile: SimProfile, schema: Obj, requestIndex: number, answerIndex: number): string[] {
  const s = profile.structuredOutput;
  const quality: ArgumentsQuality = spread(answerIndex, s.invalid, 0) ? 'invalid' : spread(answerIndex, s.malformed, 0.5) ? 'malformed' : 'valid';
  return argumentPieces(argumentsText(schema, hashInts(profile.seed, requestIndex, 0x7004), quality));
}
