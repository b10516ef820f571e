/**
 * Incremental newline-delimited JSON parser over raw bytes, for Ollama's native
 * API. Same approach as the SSE parser: lines are found with native byte scans
 * and only complete lines are decoded, so a UTF-8 character split across reads
 * is safe. Blank lines are skipped (but counted, see EventParser); a trailing CR is dropped. A line past its
 * limit stops the parser (see response-limits.ts) instead of growing.
 */
import type { EmptyEventListener } from './sse-parser.js';
import { NDJSON_LIMITS, type Overflow, type ParserLimits, overflow } from './response-limits.js';

const LF = 0x0a;
const CR = 0x0d;

/** Receives each complete, non-blank line (without its terminator). */
export type NdjsonLineListener = (line: string) => void;

/** Push bytes as they arrive; `onLine` runs inside `push`. Call `end()` at the close to flush a last unterminated line. */
export class NdjsonParser {
  /** Copied bytes of a line still waiting for its LF. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set when a line went past its limit; the parser then ignores everything. */
  overflow: Overflow | null = null;

  constructor(
    private readonly onLine: NdjsonLineListener,
    private readonly limits: ParserLimits = NDJSON_LIMITS,
    private readonly onEmpty: EmptyEventListener = () => {},
  ) {}

  /** Feeds one read. The buffer is not retained (a partial line is copied). */
  push(chunk: Buffer): void {
    if (this.overflow !== null) return;
    let pos = 0;
    while (pos < chunk.length) {
      const lf = chunk.indexOf(LF, pos);
      const end = lf === -1 ? chunk.length : lf;
      if (this.pendingBytes + end - pos > this.limits.lineBytes) {
        this.overflow = overflow('ndjsonLineBytes', 'an NDJSON line');
        this.pending = [];
        this.pendingBytes = 0;
        return;
      }
      if (lf === -1) {
        this.pending.push(Buffer.from(chunk.subarray(pos)));
        this.pendingBytes += chunk.length - pos;
        return;
      }
      if (this.pending.length > 0) {
        this.pending.push(chunk.subarray(pos, lf));
        const line = Buffer.concat(this.pending);
        this.pending = [];
        this.pendingBytes = 0;
        this.line(line, 0, line.length);
      } else {
        this.line(chunk, pos, lf);
      }
      pos = lf + 1;
    }
  }

  /** The stream closed: a pending line without its LF is complete. */
  end(): void {
    if (this.overflow !== null || this.pending.length === 0) return;
    const line = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.line(line, 0, line.length);
  }

  private line(buf: Buffer, start: number, end: number): void {
    let e = end;
    if (e > start && buf[e - 1] === CR) e--;
    const text = buf.toString('utf8', start, e);
    // A blank line is read like any other: it counts against the event allowance.
    if (text.trim() !== '') this.onLine(text);
    else this.onEmpty();
  }
}
