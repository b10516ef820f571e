/**
 * A published site as it lies on disk, seen without trusting it: every entry
 * lstat'ed (never followed), symlinks and special files (FIFOs, devices,
 * sockets) refused before anything is opened, the walk bounded in depth and
 * entries, and files read only through a bounded reader that refuses to
 * follow a link or read past a size.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FileRefusal, readRegularFile } from '../files/index.js';

/** A site is a few folders deep and a few thousand files; a walk past these is not one. */
const MAX_DEPTH = 4;
const MAX_ENTRIES = 100_000;
/** Unexpected paths listed before the rest are only counted. */
export const LISTED_PATHS = 20;

export interface SiteTree {
  /** Regular files by '/'-separated path, with their size. */
  files: Map<string, number>;
  /** Folders by path (the site root excluded). */
  dirs: string[];
  /** Symlinks, special files and bounds crossed, one sentence each. */
  problems: string[];
}

function kindOf(s: Awaited<ReturnType<typeof lstat>>): string {
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

export async function walkSite(root: string): Promise<SiteTree> {
  const tree: SiteTree = { files: new Map(), dirs: [], problems: [] };
  let seen = 0;
  const visit = async (rel: string, depth: number): Promise<void> => {
    const names = (await readdir(rel === '' ? root : join(root, rel))).sort();
    for (const name of names) {
      if (++seen > MAX_ENTRIES) {
        if (seen === MAX_ENTRIES + 1) tree.problems.push(`(site): holds more than ${MAX_ENTRIES} entries; a published site holds far fewer [rule: site-file]`);
        return;
      }
      const path = rel === '' ? name : `${rel}/${name}`;
      const s = await lstat(join(root, path));
      if (s.isFile()) tree.files.set(path, s.size);
      else if (s.isDirectory()) {
        tree.dirs.push(path);
        if (depth >= MAX_DEPTH) tree.problems.push(`${path}/: is nested deeper than any published site [rule: site-file]`);
        else await visit(path, depth + 1);
      } else tree.problems.push(`${path}: is ${kindOf(s)}; a published site holds only regular files and folders [rule: site-file]`);
    }
  };
  await visit('', 1);
  return tree;
}

/**
 * The file's bytes, or a sentence why not: read through the one regular-file
 * reader (lstat first, never through a symlink, never blocking on a FIFO, at
 * most `max` bytes: a longer file is refused, not truncated).
 */
export async function readBounded(path: string, max: number): Promise<{ ok: true; bytes: Buffer } | { ok: false; problem: string }> {
  try {
    return { ok: true, bytes: await readRegularFile(path, { bytes: max, what: 'bytes expected' }) };
  } catch (err) {
    if (err instanceof FileRefusal) return { ok: false, problem: err.detail };
    throw err;
  }
}

/** "a, b, c and 4 more": the first LISTED_PATHS of a list, then a count. */
export function listSome(paths: readonly string[]): string {
  const shown = paths.slice(0, LISTED_PATHS).join(', ');
  return paths.length > LISTED_PATHS ? `${shown} and ${paths.length - LISTED_PATHS} more` : shown;
}
