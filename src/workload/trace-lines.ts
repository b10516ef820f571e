/**
 * A trace file, line by line, streamed: never loaded whole (public traces run to
 * gigabytes), every line bounded (a file with no newline is refused at the bound,
 * not buffered), and the whole file's sha256 computed on the way, since a replay
 * is identified by its trace's bytes whatever slice of it was taken.
 */
import { createHash } from 'node:crypto';
import { LIMITS } from '../core/index.js';
import { FileRefusal, openRegularFile } from '../files/index.js';
import { WorkloadError } from './errors.js';

/** The longest line a trace may hold, bytes (a Mooncake line with thousands of hash ids is a few tens of KB). */
const TRACE_LINE_BYTES = LIMITS.traceLineBytes.max;

/**
 * Calls `onLine(text, lineNumber)` for every line (1-based; a final line without
 * a newline included, a trailing CR dropped); returns the file's sha256. Stops
 * reading, still hashing, once `onLine` returns false.
 * @throws WorkloadError naming the file and line (unreadable, a line past the bound, invalid UTF-8).
 */
export async function forEachTraceLine(path: string, onLine: (text: string, line: number) => boolean | void): Promise<{ sha256: string; lines: number }> {
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  let wanted = true;
  const emit = (bytes: Buffer) => {
    line++;
    if (!wanted) return;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new WorkloadError('bad-format', `trace ${path}: line ${line} is not UTF-8 text`);
    }
    if (onLine(cleanLine(text, line), line) === false) wanted = false;
  };
  try {
    // A regular file only: a FIFO or a device would block or stream forever.
    const { handle } = await openRegularFile(path);
    for await (const chunk of handle.createReadStream({ highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      if (!wanted) continue;
      let from = 0;
      for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
        const piece = chunk.subarray(from, nl);
        if (pendingBytes + piece.length > TRACE_LINE_BYTES) throw tooLong(path, line + 1);
        emit(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
        pending = [];
        pendingBytes = 0;
        from = nl + 1;
      }
      const rest = chunk.subarray(from);
      pendingBytes += rest.length;
      if (pendingBytes > TRACE_LINE_BYTES) throw tooLong(path, line + 1);
      if (rest.length > 0) pending.push(Buffer.from(rest));
    }
  } catch (err) {
    if (err instanceof WorkloadError) throw err;
    if (err instanceof FileRefusal && err.refused) throw new WorkloadError('unreadable', `trace ${err.message}`);
    throw new WorkloadError('unreadable', `trace ${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (pendingBytes > 0 && wanted) emit(Buffer.concat(pending));
  return { sha256: hash.digest('hex'), lines: line };
}

/** A line without its trailing CR; the first without a byte-order mark (not part of its text: every reader accepts BOM files alike). */
function cleanLine(text: string, line: number): string {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line === 1 && t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
}

/**
 * The same for a trace already in memory as text (a file picked in the page, sent in a request body): the
 * same lines, the same bound on each, and the sha256 of the text's UTF-8 bytes, the file's own for a UTF-8 file.
 */
export function forEachTextLine(name: string, text: string, onLine: (text: string, line: number) => boolean | void): { sha256: string; lines: number } {
  const pieces = text.split('\n');
  if (pieces.at(-1) === '') pieces.pop();
  for (const [i, piece] of pieces.entries()) {
    if (Buffer.byteLength(piece) > TRACE_LINE_BYTES) throw tooLong(name, i + 1);
    if (onLine(cleanLine(piece, i + 1), i + 1) === false) break;
  }
  return { sha256: createHash('sha256').update(text, 'utf8').digest('hex'), lines: pieces.length };
}

function tooLong(path: string, line: number): WorkloadError {
  return new WorkloadError('bad-format', `trace ${path}: line ${line} is longer than ${TRACE_LINE_BYTES / 1024 / 1024} MiB (is this a trace file?)`);
}
