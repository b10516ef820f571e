/**
 * Output files are written whole or not at all: a temporary file in the same
 * folder, then a rename; a failed write leaves no temporary file behind. A set
 * of files is written all or none: every target checked, every temporary
 * written, and only then the renames. Raw records are appended level by
 * level, so a killed run keeps every finished level.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type RecordOf, sanitizeForTerminal } from '../core/index.js';
import { CliError, EXIT } from './exit-codes.js';

const tmpOf = (path: string) => `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
const removeQuietly = (path: string) => unlink(path).catch(() => {});

/** A usage error when `path` is an existing directory (where a file was asked for). */
async function refuseDirectory(path: string): Promise<void> {
  const s = await stat(path).catch(() => null);
  if (s?.isDirectory()) throw new CliError(EXIT.usage, `${path} is a directory; give a file path`);
}

/** Writes `text` to `path` through a temporary file and a rename; on failure the temporary file is removed. */
export async function writeFileAtomic(path: string, text: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = tmpOf(path);
  try {
    await writeFile(tmp, text);
    await rename(tmp, path);
  } catch (err) {
    await removeQuietly(tmp);
    await refuseDirectory(path);
    throw err;
  }
}

/**
 * Writes every file or none: nothing is written when a target is a directory
 * or any temporary file fails; the renames come only after all temporaries are
 * written (on a failed rename, the temporaries not yet renamed are removed).
 */
export async function writeFilesAtomic(files: ReadonlyArray<{ path: string; text: string }>): Promise<void> {
  for (const f of files) await refuseDirectory(f.path);
  const temps: Array<{ tmp: string; path: string }> = [];
  try {
    for (const f of files) {
      await mkdir(dirname(f.path), { recursive: true });
      const tmp = tmpOf(f.path);
      temps.push({ tmp, path: f.path });
      await writeFile(tmp, f.text);
    }
    while (temps.length > 0) {
      const t = temps[0] as { tmp: string; path: string };
      await rename(t.tmp, t.path);
      temps.shift();
    }
  } finally {
    await Promise.all(temps.map((t) => removeQuietly(t.tmp)));
  }
}

/** Records as JSON lines, one per line. */
export function recordsText(records: readonly RecordOf[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** Writes one level's records as JSON lines: the first level replaces the file, later ones append. */
export async function writeRecords(path: string, records: readonly RecordOf[], first: boolean): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const text = recordsText(records);
  await (first ? writeFile(path, text) : appendFile(path, text));
}

/** Confirms on stderr what was written (stdout may be the result itself), e.g. `wrote result.json, records.jsonl`. */
export function sayWritten(paths: ReadonlyArray<string | undefined>, log: NodeJS.WritableStream = process.stderr): void {
  const written = paths.filter((p): p is string => p !== undefined && p !== '-');
  if (written.length > 0) log.write(`wrote ${written.map((p) => sanitizeForTerminal(p)).join(', ')}\n`);
}
