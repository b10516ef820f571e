/**
 * The one point every command's output passes: whatever a command writes to
 * stdout or stderr is sanitised (escape sequences dropped, control and bidi
 * characters shown as U+FFFD; newlines and tabs kept) before a terminal sees it.
 * Strings reach the output from results, stored rows, servers and files through
 * many renderers; guarding each print would leave the next one raw. goodput
 * itself writes no escape sequence, so nothing of its own is lost.
 */
import { sanitizeForTerminal } from '../core/index.js';

type Write = NodeJS.WriteStream['write'];

const GUARDED = Symbol('sanitised');

/** Makes `stream.write` sanitise every string (and UTF-8 bytes) written to it; a guarded write is not wrapped twice. */
export function guardTerminalWrites(stream: NodeJS.WriteStream): void {
  if ((stream.write as Write & { [GUARDED]?: true })[GUARDED]) return;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const guarded = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : null;
    return write(text === null ? chunk : sanitizeForTerminal(text, { keepNewlines: true }), ...rest);
  }) as Write & { [GUARDED]?: true };
  guarded[GUARDED] = true;
  stream.write = guarded;
}
