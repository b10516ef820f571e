/**
 * Reading a file someone else may have prepared: only a regular file is opened
 * (lstat first, so a symbolic link, a FIFO, a device or a socket is refused
 * before anything blocks on it or streams from it), it is opened without
 * following a link and checked to be the file lstat saw, and its size limit is
 * enforced while reading, not only from the size it claimed.
 */
import { constants } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';

/** A file refused or unreadable: `detail` completes "<path> …" (e.g. "is a symbolic link; give the file itself"). */
export class FileRefusal extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
    readonly code: string,
  ) {
    super(`${path} ${detail}`);
  }

  /** True when the file was there but refused (not regular, too large, changed); false for a plain read error (ENOENT, EACCES…). */
  get refused(): boolean {
    return ['ENOTREG', 'EFBIG', 'ECHANGED', 'EPERM_OPEN'].includes(this.code) || this.detail.startsWith('is a symbolic link');
  }
}

const KINDS: Array<[(s: Awaited<ReturnType<typeof lstat>>) => boolean, string]> = [
  [(s) => s.isSymbolicLink(), 'is a symbolic link; give the file itself'],
  [(s) => s.isDirectory(), 'is a directory, not a file'],
  [(s) => s.isFIFO(), 'is a FIFO (named pipe), not a regular file'],
  [(s) => s.isCharacterDevice() || s.isBlockDevice(), 'is a device, not a regular file'],
  [(s) => s.isSocket(), 'is a socket, not a regular file'],
];

/**
 * Opens `path` for reading if it is a regular file.
 * @throws FileRefusal naming the path: missing, unreadable, or not a regular file.
 */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  let st;
  try {
    st = await lstat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    throw new FileRefusal(path, code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`, code);
  }
  for (const [is, detail] of KINDS) if (is(st)) throw new FileRefusal(path, detail, 'ENOTREG');
  if (!st.isFile()) throw new FileRefusal(path, 'is not a regular file', 'ENOTREG');
  let handle: FileHandle;
  try {
    // O_NOFOLLOW and O_NONBLOCK: a path swapped for a link or a FIFO after lstat neither follows nor blocks.
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    throw new FileRefusal(path, code === 'ELOOP' ? 'is a symbolic link; give the file itself' : `cannot be read (${code})`, code);
  }
  const now = await handle.stat();
  if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev) {
    await handle.close();
    throw new FileRefusal(path, 'changed while it was being opened', 'ECHANGED');
  }
  return { handle, size: now.size };
}

/**
 * A regular file's bytes, at most `limit.bytes` of them.
 * @throws FileRefusal naming the path and the limit when the file is (or grows) larger.
 */
export async function readRegularFile(path: string, limit: { bytes: number; what: string }, opts: { secret?: boolean } = {}): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path);
  try {
    if (opts.secret) await refuseUnlessPrivate(path, handle);
    const tooBig = (n: number | string) => new FileRefusal(path, `is ${n} bytes, above the limit of ${limit.bytes} ${limit.what}`, 'EFBIG');
    if (size > limit.bytes) throw tooBig(size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(1 << 20, limit.bytes + 1 - total));
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit.bytes) throw tooBig(`more than ${limit.bytes}`);
      chunks.push(buf.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

/**
 * A secret (a private key) is read only from a file its user owns that no one else
 * may read or write, as ssh refuses an unprotected key: one another user could
 * read is no longer secret, and one another user owns could be swapped for theirs.
 */
async function refuseUnlessPrivate(path: string, handle: FileHandle): Promise<void> {
  const st = await handle.stat();
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new FileRefusal(path, `is owned by user ${st.uid}, not by you (${uid}); a private key is read only from your own file`, 'EPERM_OPEN');
  const open = st.mode & 0o077;
  if (open !== 0)
    throw new FileRefusal(
      path,
      `has mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}, open to other users; a private key must be 0600 (chmod 600 it, or make a new one if others may have read it)`,
      'EPERM_OPEN',
    );
}

/** A regular file's UTF-8 text, with a leading byte-order mark dropped (so every reader accepts BOM files alike). */
export async function readRegularText(path: string, limit: { bytes: number; what: string }): Promise<string> {
  const text = (await readRegularFile(path, limit)).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
