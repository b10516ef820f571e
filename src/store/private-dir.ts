/**
 * The embedded store holds API keys and measurements: its data directory is
 * this user's alone (0700 folders, 0600 files). PGlite creates its files with
 * the process umask (its WAL came out 0666), so modes are tightened after it
 * writes, and a directory left open by an older version is fixed on open.
 */
import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Stops a walk of a directory that is not ours to fix (a wrong GOODPUT_DATA pointing at /). */
const MAX_ENTRIES = 100_000;

/**
 * Creates `dir` when missing and removes group and other access from it and
 * everything under it (symbolic links are left alone).
 * @returns how many entries had group or other access before
 */
/**
 * True when `dir` exists as a folder only its owner can enter: nothing under
 * it is then reachable by anyone else, whatever the files' own modes.
 */
export async function isClosed(dir: string): Promise<boolean> {
  const st = await stat(dir).catch(() => null);
  return st !== null && st.isDirectory() && (st.mode & 0o077) === 0;
}

export async function makePrivate(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let loosened = 0;
  let seen = 0;
  const fix = async (path: string): Promise<void> => {
    if (++seen > MAX_ENTRIES) throw new Error(`${dir} holds more than ${MAX_ENTRIES} entries: not a goodput data directory`);
    const st = await lstat(path);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) {
      loosened++;
      // The owner's bits stay (an executable stays executable to its owner); read and write are ensured.
      await chmod(path, (st.mode & 0o700) | (st.isDirectory() ? 0o700 : 0o600));
    }
    if (st.isDirectory()) for (const name of await readdir(path)) await fix(join(path, name));
  };
  await fix(dir);
  return loosened;
}
