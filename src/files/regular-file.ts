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
  constructor(readonly path: string, readonly detail: string, readonly code: string) {
    super(`${path} ${detail}`);
  }

  /** True when the file was there but refused (not regular, too large, changed); false for a plain read error (ENOENT, EACCES…). */
  get refused(): boolean {
    return ['ENOTREG', 'EFBIG', 'ECHANGED'].includes(this.code) || this.detail.startsWith('is a symbolic link');
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
export async function readRegularFile(path: string, limit: { bytes: number; what: string }): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path);
  try {
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

/** A regular file's UTF-8 text, with a leading byte-order mark dropped (so every reader accepts BOM files alike). */
export async function readRegularText(path: string, limit: { bytes: number; what: string }): Promise<string> {
  const text = (await readRegularFile(path, limit)).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
