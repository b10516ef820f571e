import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal } from './terminal-text.js';

describe('sanitizeForTerminal', () => {
  it('drops clear-screen, cursor and colour sequences whole', () => {
    expect(sanitizeForTerminal('a\u001b[2J\u001b[Hb\u001b[31mc\u001b[0m')).toBe('abc');
  });

  it('drops an OSC 52 clipboard write and a window-title change, BEL or ST terminated', () => {
    expect(sanitizeForTerminal('m\u001b]52;c;ZXZpbA==\u0007odel')).toBe('model');
    expect(sanitizeForTerminal('x\u001b]0;pwned\u001b\\y')).toBe('xy');
    expect(sanitizeForTerminal('p\u009d52;c;ZXZpbA==\u009cq')).toBe('pq');
  });

  it('marks other controls and bidi overrides instead of passing them on', () => {
    expect(sanitizeForTerminal('a\u0000b\u0008c\u007fd\u202ee')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
  });

  it('keeps ordinary text, tabs and non-ASCII letters', () => {
    expect(sanitizeForTerminal('Qwen3-8B\t✓ 日本語 é')).toBe('Qwen3-8B\t✓ 日本語 é');
  });

  it('folds newlines unless asked to keep them', () => {
    expect(sanitizeForTerminal('one\r\ntwo\nthree\rfour')).toBe('one two three four');
    expect(sanitizeForTerminal('one\r\ntwo\n\u001b[2Jthree', { keepNewlines: true })).toBe('one\ntwo\nthree');
  });

  it('leaves nothing of an unterminated escape', () => {
    expect(sanitizeForTerminal('a\u001b]52;c;AAAA')).toBe('a');
    expect(sanitizeForTerminal('a\u001b')).toBe('a');
  });
});
