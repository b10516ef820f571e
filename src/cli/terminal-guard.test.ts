import { describe, expect, it } from 'vitest';
import { guardTerminalWrites, sanitizeKeepingColour, unguarded } from './terminal-guard.js';

const EVIL = 'model \u001b]52;c;ZXZpbA==\u0007\u001b[2J\u001b[1A\u202egnp.exe';

function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; seen: unknown[] } {
  const seen: unknown[] = [];
  const stream = {
    isTTY,
    columns: 80,
    write: (chunk: unknown) => {
      seen.push(chunk);
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, seen };
}

describe('the terminal guard', () => {
  it("drops a hostile string's clipboard write, clear-screen, cursor move and bidi override on a TTY", () => {
    const { stream, seen } = fakeStream(true);
    guardTerminalWrites(stream);
    stream.write(`${EVIL}\n`);
    expect(seen).toEqual(['model \uFFFDgnp.exe\n']);
  });

  it('keeps colour (our own marks), which cannot move the cursor or reach the clipboard', () => {
    expect(sanitizeKeepingColour('\u001b[31m INVALID\u001b[39m \u001b[2K')).toBe('\u001b[31m INVALID\u001b[39m ');
  });

  it('leaves a pipe or a file byte for byte (JSON, exports are data), unless forced', () => {
    const pipe = fakeStream(false);
    guardTerminalWrites(pipe.stream);
    pipe.stream.write('{"model":"\u202eevil"}');
    expect(pipe.seen).toEqual(['{"model":"\u202eevil"}']);
    const forced = fakeStream(false);
    guardTerminalWrites(forced.stream, true);
    forced.stream.write('\u202eevil');
    expect(forced.seen).toEqual(['\uFFFDevil']);
  });

  it('decodes UTF-8 across writes: a character split between two chunks arrives whole', () => {
    const { stream, seen } = fakeStream(true);
    guardTerminalWrites(stream);
    const bytes = Buffer.from('→ 1,024 tok/s', 'utf8');
    stream.write(bytes.subarray(0, 2));
    stream.write(bytes.subarray(2));
    expect(seen.join('')).toBe('→ 1,024 tok/s');
  });

  it('is installed once, and the progress bar writes past it with its own cursor controls', () => {
    const { stream, seen } = fakeStream(true);
    guardTerminalWrites(stream);
    const guarded = stream.write;
    guardTerminalWrites(stream);
    expect(stream.write).toBe(guarded);
    unguarded(stream).write('\r\u001b[2Klevel 1/3');
    expect(seen).toEqual(['\r\u001b[2Klevel 1/3']);
    expect(unguarded(stream).isTTY).toBe(true);
  });
});
