/**
 * Tool-call arguments the simulator "generates": a JSON value built from the
 * tool's JSON schema (objects with their required properties and some optional
 * ones, enums, bounded strings, integers and arrays; the first branch of
 * anyOf/oneOf), seeded so a run is reproducible, then broken on purpose when the
 * profile asks for invalid (a required property dropped, or an array where an
 * object belongs) or malformed (cut JSON) arguments.
 */
import { mulberry32 } from './random.js';
import { OUTPUT_WORDS } from './tokenizer.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);

/** Deepest nesting followed: past it a value is null (schemas can be recursive through $ref-free nesting). */
const MAX_DEPTH = 8;

/** A value valid for `schema` as far as its keywords above go. */
export function valueFor(schema: unknown, rand: () => number, depth = 0): Json {
  if (!isSchema(schema) || depth > MAX_DEPTH) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[Math.floor(rand() * schema.enum.length)] as Json;
  if ('const' in schema) return schema.const as Json;
  const branch = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null)?.[0];
  if (branch !== undefined) return valueFor(branch, rand, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = isSchema(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []);
      const out: { [k: string]: Json } = {};
      for (const [k, s] of Object.entries(props)) if (required.has(k) || rand() < 0.5) out[k] = valueFor(s, rand, depth + 1);
      return out;
    }
    case 'array': {
      const min = num(schema.minItems, 0);
      const n = Math.min(num(schema.maxItems, 3), Math.max(min, 1 + Math.floor(rand() * 3)));
      return Array.from({ length: n }, () => valueFor(schema.items, rand, depth + 1));
    }
    case 'integer':
    case 'number': {
      const lo = num(schema.minimum, 0);
      const hi = Math.max(lo, num(schema.maximum, lo + 100));
      return lo + Math.floor(rand() * (hi - lo + 1));
    }
    case 'boolean':
      return rand() < 0.5;
    case 'null':
      return null;
    default: {
      const max = Math.max(1, num(schema.maxLength, 40));
      const min = Math.min(max, num(schema.minLength, 1));
      let s = '';
      while (s.length < min || (s.length < max && rand() < 0.6))
        s += (s === '' ? '' : '_') + (OUTPUT_WORDS[Math.floor(rand() * OUTPUT_WORDS.length)] as string);
      return s.slice(0, max);
    }
  }
}

/** How the arguments should come out. */
export type ArgumentsQuality = 'valid' | 'invalid' | 'malformed';

/** The argument text of one call to a tool with `parameters`, seeded by `seed`. */
export function argumentsText(parameters: unknown, seed: number, quality: ArgumentsQuality): string {
  const rand = mulberry32(seed);
  const value = valueFor(isSchema(parameters) ? parameters : { type: 'object' }, rand);
  if (quality === 'valid') return JSON.stringify(value);
  if (quality === 'malformed') {
    const text = JSON.stringify(value);
    return text.slice(0, Math.max(1, text.length - 2));
  }
  const required = isSchema(parameters) && Array.isArray(parameters.required) ? parameters.required : [];
  const key = required.find((k): k is string => typeof k === 'string');
  if (key !== undefined && isSchema(value)) {
    const { [key]: _dropped, ...rest } = value as { [k: string]: Json };
    return JSON.stringify(rest);
  }
  return JSON.stringify([value]);
}

/** Argument text in pieces of about four characters: one piece per output token. */
export function argumentPieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 4) out.push(text.slice(i, i + 4));
  return out.length === 0 ? [''] : out;
}
