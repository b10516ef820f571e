/**
 * Output files are written whole or not at all: a temporary file in the same
 * folder, then a rename. Raw records are appended level by level, so a killed
 * run keeps every finished level.
 */
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { RequestRecord } from '../core/index.js';

export async function writeFileAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** Writes one level's records as JSON lines: the first level replaces the file, later ones append. */
export async function writeRecords(path: string, records: readonly RequestRecord[], first: boolean): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  await (first ? writeFile(path, text) : appendFile(path, text));
}
