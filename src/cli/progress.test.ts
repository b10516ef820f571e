/**
 * Each warning is read once: the final report lists them, so the live progress
 * prints them only when that report does not reach the same screen or log.
 */
import { describe, expect, it } from 'vitest';
import { summarizeLevel } from '../core/index.js';
import { rec } from '../test-support/records.js';
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

describe('the level-end line', () => {
  it("names a level's retries after 429/529/503 and the provider's limit that set its pace", () => {
    const gpu = { available: false as const, source: 'not available' as const, reason: 'test' };
    const retried = {
      ...rec({ chunksMs: [1010, 1020], endMs: 1021 }),
      headersNs: 1001e6,
      attempts: [{ status: 429, sendNs: 0, endNs: 1e6, waitMs: 1000 }],
      rateLimit: { limitRequests: 60 },
    };
    const level = summarizeLevel({
      concurrency: 2,
      records: [retried],
      targetOutputTokens: 2,
      forceLength: false,
      loopDelayMs: null,
      clientCpuPct: null,
      clientBudgetMs: 1e6,
      gpu,
    });
    const out = capture();
    progressReporter(out.stream, { warnings: false })({ kind: 'level-end', level, records: [retried] } as never);
    expect(out.text()).toContain("0 failed, 1 retries after 429/529/503 (1.0 s waited), limited by the provider's rate limit (60 requests/min)");
  });
});
