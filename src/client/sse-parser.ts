/**
 * Incremental Server-Sent Events parser over raw bytes. It keeps only what the
 * benchmark needs, the `data` field: lines are found with native byte scans,
 * only complete lines are decoded (a UTF-8 character split across reads is safe),
 * and the only string made per event is its payload. A line or an event past its
 * limit (see response-limits.ts) stops the parser: it keeps nothing more and
 * reports the overflow instead of growing.
 */
import { type Overflow, type ParserLimits, SSE_LIMITS, overflow } from './response-limits.js';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;

/** Receives the `data` of each complete event (multi-line data joined with `\n`). */
export type SseDataListener = (data: string) => void;
/** Called for each comment line and each event that ends with no data: they cost reading too, so they count against the event allowance. */
export type EmptyEventListener = () => void;

/**
 * Push bytes as they arrive; `onData` runs synchronously, inside `push`, for
 * every event the bytes complete. Call `end()` when the stream closes to flush
 * a final event that lacks its blank line.
 *
 * Tolerances beyond the SSE spec: a line of only spaces/tabs counts as blank,
 * and trailing spaces on a `data:` line are kept (JSON.parse ignores them).
 */
export class SseParser {
  /** Copied bytes of a line still waiting for its terminator. */
  private pending: Buffer[] = [];
  /** The previous buffer ended in CR: a leading LF in the next one belongs to it. */
  private skipLf = false;
  private firstLine = true;
  /** Bytes held in `pending`. */
  private pendingBytes = 0;
  /** `data` accumulated for the event being read, or null when it has none yet. */
  private data: string | null = null;
  /** UTF-8 bytes of `data`. */
  private dataBytes = 0;
  /** Set when a line or an event went past its limit; the parser then ignores everything. */
  overflow: Overflow | null = null;

  constructor(
    private readonly onData: SseDataListener,
    private readonly limits: ParserLimits = SSE_LIMITS,
    private readonly onEmpty: EmptyEventListener = () => {},
  ) {}

  /** Feeds one read. The buffer is not retained (partial lines are copied). */
  push(chunk: Buffer): void {
    if (this.overflow !== null) return;
    const n = chunk.length;
    let pos = 0;
    if (this.skipLf && n > 0) {
      if (chunk[0] === LF) pos = 1;
      this.skipLf = false;
    }
    let cr = -2; // next CR at or after pos; -1 = none left in this chunk
    while (pos < n) {
      const lf = chunk.indexOf(LF, pos);
      if (cr !== -1 && cr < pos) cr = chunk.indexOf(CR, pos);
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      if (end === -1) {
        if (this.tooLong(n - pos)) return;
        this.pending.push(Buffer.from(chunk.subarray(pos, n)));
        this.pendingBytes += n - pos;
        return;
      }
      if (this.tooLong(end - pos)) return;
      if (this.pending.length > 0) {
        this.pending.push(chunk.subarray(pos, end));
        const line = Buffer.concat(this.pending);
        this.pending = [];
        this.pendingBytes = 0;
        this.line(line, 0, line.length);
      } else {
        this.line(chunk, pos, end);
      }
      if (this.overflow !== null) return;
      pos = end + 1;
      if (end === cr) {
        if (pos < n) {
          if (chunk[pos] === LF) pos++;
        } else {
          this.skipLf = true;
        }
      }
    }
  }

  /** The stream closed: treat a pending partial line as complete and flush its event. */
  end(): void {
    if (this.overflow !== null) return;
    if (this.pending.length > 0) {
      const line = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingBytes = 0;
      this.line(line, 0, line.length);
      if (this.overflow !== null) return;
    }
    this.skipLf = false;
    this.dispatch();
  }

  /** True (and the parser stopped) when `more` bytes would take the line being read past its limit. */
  private tooLong(more: number): boolean {
    if (this.pendingBytes + more <= this.limits.lineBytes) return false;
    this.stop(overflow('sseLineBytes', 'an SSE line'));
    return true;
  }

  private stop(o: Overflow): void {
    this.overflow = o;
    this.pending = [];
    this.pendingBytes = 0;
    this.data = null;
  }

  private line(buf: Buffer, start: number, end: number): void {
    let s = start;
    if (this.firstLine) {
      this.firstLine = false;
      if (end - s >= 3 && buf[s] === 0xef && buf[s + 1] === 0xbb && buf[s + 2] === 0xbf) s += 3;
    }
    if (s === end) return this.dispatch();
    const c0 = buf[s];
    if (c0 === COLON) return this.onEmpty(); // comment / keep-alive
    if (c0 === SPACE || c0 === TAB) {
      let i = s + 1;
      while (i < end && (buf[i] === SPACE || buf[i] === TAB)) i++;
      if (i === end) this.dispatch();
      return;
    }
    // Field name must be exactly "data", followed by ':' or the end of the line. Other fields' bytes count
    // towards the event's bound, so lines of them with no blank line between cannot run on unbounded.
    const isData = end - s >= 4 && c0 === 0x64 && buf[s + 1] === 0x61 && buf[s + 2] === 0x74 && buf[s + 3] === 0x61 && (end - s === 4 || buf[s + 4] === COLON);
    if (!isData) {
      this.dataBytes += end - s;
      if (this.dataBytes > this.limits.eventBytes) this.stop(overflow('sseEventBytes', 'an SSE event'));
      return;
    }
    let v = s + 4;
    if (v < end) {
      v++;
      if (v < end && buf[v] === SPACE) v++;
    }
    // data: lines with no blank line between them would join into one endless event.
    this.dataBytes += (this.data === null ? 0 : 1) + end - v;
    if (this.dataBytes > this.limits.eventBytes) return this.stop(overflow('sseEventBytes', 'an SSE event'));
    const value = buf.toString('utf8', v, end);
    this.data = this.data === null ? value : `${this.data}\n${value}`;
  }

  private dispatch(): void {
    const data = this.data;
    this.dataBytes = 0;
    if (data === null) return this.onEmpty();
    this.data = null;
    this.onData(data);
  }
}
