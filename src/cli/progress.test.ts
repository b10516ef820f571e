/**
 * Each warning is read once: the final report lists them, so the live progress
 * prints them only when that report does not reach the same screen or log.
 */
import { describe, expect, it } from 'vitest';
import { liveWarnings, progressReporter } from './progress.js';

function capture() {
  let text = '';
  const stream = {
    isTTY: false,
    write: (s: string) => {
      text += s;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

const warning = { kind: 'warning', warning: { code: 'client-bound', message: 'speed 4×: late' } } as const;

describe('live warnings', () => {
  it('are left to the report when it reaches the same place, printed live when it does not', () => {
    // Both on a terminal, or both captured (a log, a pipe): the report has them.
    expect(liveWarnings(false, { isTTY: true }, { isTTY: true })).toBe(false);
    expect(liveWarnings(false, { isTTY: false }, { isTTY: false })).toBe(false);
    // The report goes to a file while the terminal watches, or stdout carries JSON alone: live.
    expect(liveWarnings(false, { isTTY: false }, { isTTY: true })).toBe(true);
    expect(liveWarnings(true, { isTTY: true }, { isTTY: true })).toBe(true);
  });

  it('the reporter prints a warning only when asked to', () => {
    const quiet = capture();
    progressReporter(quiet.stream, { warnings: false })(warning);
    expect(quiet.text()).toBe('');
    const live = capture();
    progressReporter(live.stream, { warnings: true })(warning);
    expect(live.text()).toContain('warning: speed 4×: late');
  });
});
