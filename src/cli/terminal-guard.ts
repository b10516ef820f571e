/**
 * The one point every command's output passes on its way to a terminal: what a
 * command writes to a TTY's stdout or stderr is sanitised (escape sequences
 * dropped, control and bidi characters shown as U+FFFD; newlines and tabs kept)
 * before the terminal sees it. Strings reach the output from results, stored
 * rows, servers and files through many renderers; guarding each print would leave
 * the next one raw.
 *
 * Two things pass: colour (SGR, `ESC[…m`, which cannot move the cursor, erase or
 * reach the clipboard), so picocolors' marks survive; and the progress bar, which
 * draws with cursor controls and writes through `unguarded(stream)` (its text is
 * goodput's own: level numbers and counts). Output to a pipe or a file is data
 * (`--json -`, `runs export`) and is left byte for byte as written.
 */
import { StringDecoder } from 'node:string_decoder';
import { sanitizeForTerminal } from '../core/index.js';

type Write = NodeJS.WriteStream['write'];
type RawWrite = (chunk: unknown, ...rest: unknown[]) => boolean;

const RAW = Symbol('unguarded write');
// eslint-disable-next-line no-control-regex -- matching the escape character is the point
const SGR = /\u001b\[[0-9;]*m/g;

/** Sanitises `text` for a terminal, keeping colour sequences (and nothing else of the escape family). */
export function sanitizeKeepingColour(text: string): string {
  const parts = text.split(SGR);
  const colours = text.match(SGR) ?? [];
  return parts.map((p, i) => sanitizeForTerminal(p, { keepNewlines: true }) + (colours[i] ?? '')).join('');
}

/**
 * Makes `stream.write` sanitise every string (and UTF-8 bytes, decoded across
 * writes so a character split between two chunks is not broken) written to it.
 * Only a TTY is guarded unless `force` (the in-process test harness, whose
 * stream is a capture); a guarded stream is not wrapped twice.
 */
export function guardTerminalWrites(stream: NodeJS.WriteStream, force = false): void {
  const current = stream.write as Write & { [RAW]?: RawWrite };
  if (current[RAW] || (!force && stream.isTTY !== true)) return;
  const write = stream.write.bind(stream) as RawWrite;
  const decoder = new StringDecoder('utf8');
  const guarded = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? decoder.write(Buffer.from(chunk)) : null;
    return write(text === null ? chunk : sanitizeKeepingColour(text), ...rest);
  }) as Write & { [RAW]?: RawWrite };
  guarded[RAW] = write;
  stream.write = guarded;
}

/** A stream whose writes skip the guard: for the progress bar's own cursor controls only. */
export function unguarded(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const raw = (stream.write as Write & { [RAW]?: RawWrite })[RAW];
  if (!raw) return stream;
  return new Proxy(stream, {
    get(target, prop, receiver) {
      if (prop === 'write') return raw;
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
