/**
 * Writes the site whole or not at all: every file into a fresh folder beside
 * the target, then one rename. A previous site at the target is replaced
 * only once the new one is complete; a folder that is not a site is refused.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Why `dir` cannot be (re)written, or null. */
export async function siteTargetProblem(dir: string): Promise<string | null> {
  if (!existsSync(dir)) return null;
  if (!(await stat(dir)).isDirectory()) return `--out: ${dir} exists and is not a directory`;
  const entries = await readdir(dir);
  if (entries.length > 0 && !entries.includes('dataset.json'))
    return `--out: ${dir} is not empty and holds no published site (no dataset.json); choose an empty or new directory`;
  return null;
}

/** The target cannot be written (a file in the path, no permission, a read-only disk): the user's --out, not a bug. */
export class SiteTargetError extends Error {
  constructor(
    readonly dir: string,
    readonly code: string,
  ) {
    super(`--out: cannot write the site to ${dir}: ${WHY[code] ?? code}`);
    this.name = 'SiteTargetError';
  }
}

const WHY: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a part of the path is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
};

/**
 * Writes `files` as the site at `dir` (see the module header).
 * @throws SiteTargetError when the file system refuses the target (ENOTDIR, EEXIST, EACCES, EPERM, EROFS); other errors as thrown.
 */
export async function writeSite(dir: string, files: ReadonlyMap<string, string | Buffer>): Promise<void> {
  try {
    await writeWhole(dir, files);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | null)?.code;
    if (code !== undefined && code in WHY) throw new SiteTargetError(dir, code);
    throw err;
  }
}

async function writeWhole(dir: string, files: ReadonlyMap<string, string | Buffer>): Promise<void> {
  const target = resolve(dir);
  await mkdir(dirname(target), { recursive: true });
  const tmp = await mkdtemp(join(dirname(target), `.${basename(target)}.tmp-`));
  try {
    // mkdtemp makes the folder private; a site is meant to be read.
    await chmod(tmp, 0o755);
    for (const [name, body] of files) {
      // Evidence and receipts live in subfolders; they are made readable like the rest.
      if (name.includes('/')) await mkdir(dirname(join(tmp, name)), { recursive: true, mode: 0o755 });
      await writeFile(join(tmp, name), body);
    }
    if (existsSync(target)) {
      const old = `${tmp}.old`;
      await rename(target, old);
      try {
        await rename(tmp, target);
      } catch (err) {
        await rename(old, target); // put the previous site back before reporting
        throw err;
      }
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(tmp, target);
    }
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}
