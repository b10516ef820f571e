/**
 * A tokenizer from a local tokenizer.json (Hugging Face format), loaded offline
 * with @huggingface/tokenizers. A tokenizer_config.json beside it is used when
 * present. The file's sha256 is recorded so a rerun uses the same tokenizer.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readHashed } from './content-hash.js';
import { WorkloadError } from './errors.js';
import type { TokenCounter } from './token-counter.js';

async function optionalJson(path: string): Promise<object> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as object;
  } catch {
    return {};
  }
}

/**
 * Loads `path` (a tokenizer.json).
 * @throws WorkloadError when it cannot be read, is not JSON, or is not a tokenizer the library understands
 */
export async function loadTokenizerFile(path: string): Promise<TokenCounter> {
  const { bytes, sha256 } = await readHashed(path, 'tokenizer');
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new WorkloadError('tokenizer', `tokenizer ${path}: not JSON`);
  }
  // Loaded here, not at start-up: only a run given a tokenizer.json pays for the library.
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let tokenizer: InstanceType<typeof Tokenizer>;
  try {
    tokenizer = new Tokenizer(json as object, await optionalJson(join(dirname(path), 'tokenizer_config.json')));
  } catch (err) {
    throw new WorkloadError('tokenizer', `tokenizer ${path}: not a usable tokenizer.json (${(err as Error).message})`);
  }
  return {
    info: { kind: 'file', exact: true, label: `exact: tokenizer.json ${path} (sha256 ${sha256.slice(0, 12)}…)`, sha256 },
    count: (text) => Promise.resolve(tokenizer.encode(text, { add_special_tokens: false }).ids.length),
  };
}
