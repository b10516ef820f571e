/**
 * The export command's `--level` and `--out-dir`: narrowing a result (and its
 * records) to one level, and writing a per-level format's files into a folder
 * under the reading tool's own names. Errors name the flag and what is there.
 */
import { join } from 'node:path';
import type { RawRecord, SweepResult } from '../core/index.js';
import { writeFilesAtomic } from './files.js';
import { badFlag, parseNumber } from './parse-flags.js';
import { levelValue } from './export-vllm.js';

/** The result with only level `text` (its value on the arrival axis), and that level's records. */
export function narrowToLevel(
  result: SweepResult,
  records: RawRecord[] | null,
  text: string,
  resultPath: string,
): { result: SweepResult; records: RawRecord[] | null } {
  if (result.matrix) throw badFlag('--level', `${resultPath} is a matrix result (several cells share level values); export it whole`);
  const value = parseNumber('--level', text, { min: 0, exclusiveMin: true });
  const level = result.levels.find((l) => levelValue(l) === value);
  if (!level) throw badFlag('--level', `${value} is not a level of ${resultPath} (its levels: ${result.levels.map(levelValue).join(', ') || 'none'})`);
  return { result: { ...result, levels: [level] }, records: records?.filter((r) => r.concurrency === value) ?? null };
}

/** Writes every file into `dir` (created when missing), all or none; returns the paths written. */
export async function writeFilesInto(dir: string, files: ReadonlyArray<{ name: string; text: string }>): Promise<string[]> {
  const all = files.map((f) => ({ path: join(dir, f.name), text: f.text }));
  await writeFilesAtomic(all);
  return all.map((f) => f.path);
}

/** The flags the export command checks before reading anything. */
export function checkOutputFlags(f: { out?: string; outDir?: string }, hasFiles: boolean, format: string): void {
  if (f.out !== undefined && f.outDir !== undefined) throw badFlag('--out-dir', 'give --out (one file or -) or --out-dir (a file per level), not both');
  if (f.outDir !== undefined && !hasFiles) throw badFlag('--out-dir', `--format ${format} writes a single file; use --out`);
}
