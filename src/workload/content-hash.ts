/** Content hashes (sha256, hex) of corpora, tokenizer files and contracts. */
import { createHash } from 'node:crypto';
import { LIMITS } from '../core/index.js';
import { FileRefusal, readRegularFile } from '../files/index.js';
import { WorkloadError } from './errors.js';

/** sha256 of bytes or UTF-8 text, lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A file's bytes and their sha256; a WorkloadError naming the file when it cannot be read. */
export async function readHashed(path: string, what: string): Promise<{ bytes: Buffer; sha256: string }> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, { bytes: LIMITS.inputFileBytes.max, what: LIMITS.inputFileBytes.what });
  } catch (err) {
    if (err instanceof FileRefusal && err.refused) throw new WorkloadError('unreadable', `${what} ${err.message}`);
    throw new WorkloadError('unreadable', `${what} ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return { bytes, sha256: sha256Hex(bytes) };
}
