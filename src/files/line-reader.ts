/**
 * A regular file read line by line with each line bounded while it is read: a
 * line past its limit is refused as soon as its bytes pass the limit, before it
 * is held whole or parsed (one 400 MB line would otherwise be read, decoded and
 * parsed before any check saw it). The file as a whole keeps its own limit.
 */
import { FileRefusal, openRegularFile } from './regular-file.js';

export interface LineLimits {
  file: { bytes: number; what: string };
  line: { bytes: number; what: string };
}

/**
 * Calls `onLine(text, lineNumber)` for each line (1-based, a leading BOM and a trailing CR dropped).
 * @throws FileRefusal naming the path (and the line) when the file or one line passes its limit.
 */
export async function readRegularLines(path: string, limits: LineLimits, onLine: (line: string, n: number) => void): Promise<void> {
  const { handle, size } = await openRegularFile(path);
  try {
    if (size > limits.file.bytes) throw new FileRefusal(path, `is ${size} bytes, above the limit of ${limits.file.bytes} ${limits.file.what}`, 'EFBIG');
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    let n = 0;
    const emit = (tail: Buffer) => {
      n += 1;
      let text = Buffer.concat([...pending, tail]).toString('utf8');
      if (n === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      pending = [];
      pendingBytes = 0;
      onLine(text.endsWith('\r') ? text.slice(0, -1) : text, n);
    };
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limits.file.bytes)
        throw new FileRefusal(path, `is more than ${limits.file.bytes} bytes, above the limit of ${limits.file.bytes} ${limits.file.what}`, 'EFBIG');
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl !== -1 && nl < bytesRead; nl = buf.indexOf(10, start)) {
        if (pendingBytes + nl - start > limits.line.bytes) break;
        emit(buf.subarray(start, nl));
        start = nl + 1;
      }
      const rest = buf.subarray(start, bytesRead);
      const nextNl = rest.indexOf(10);
      if (pendingBytes + (nextNl === -1 ? rest.length : nextNl) > limits.line.bytes) {
        throw new FileRefusal(
          `${path}:${n + 1}`,
          `is a line of more than ${limits.line.bytes} bytes, above the limit of ${limits.line.bytes} ${limits.line.what}`,
          'EFBIG',
        );
      }
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
    if (pendingBytes > 0) emit(Buffer.alloc(0));
  } finally {
    await handle.close();
  }
}
