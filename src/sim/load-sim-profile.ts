/**
 * Reads a simulator profile from a JSON or YAML file and validates it. Every error
 * names the file, and validation errors also name the field.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { simProfileSchema, type SimProfile } from './profile-schema.js';
import { describeZodError } from './zod-issues.js';

function parseText(path: string, text: string): unknown {
  if (/\.json$/i.test(path)) return JSON.parse(text) as unknown;
  // YAML is a superset of JSON, so anything else (.yaml, .yml, no extension) goes here.
  return parseYaml(text) as unknown;
}

/**
 * Loads and validates a profile file (`.json`, `.yaml` or `.yml`); missing fields get
 * their defaults. An empty file is an empty profile.
 * @throws Error `"<path>: <field>: <problem>"` on a bad field, or `"<path>: <reason>"`
 *   when the file cannot be read or parsed.
 */
export async function loadSimProfile(path: string): Promise<SimProfile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: cannot read the profile (${(err as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = parseText(path, text);
  } catch (err) {
    throw new Error(`${path}: not valid JSON or YAML (${(err as Error).message.split('\n')[0] ?? ''})`);
  }
  const result = simProfileSchema.safeParse(raw ?? {});
  if (!result.success) throw new Error(`${path}: ${describeZodError(result.error)}`);
  return result.data;
}
