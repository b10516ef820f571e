/**
 * Every command that reads a file it is given refuses one that is not a
 * regular file (a symbolic link to /dev/zero, a FIFO, a device) with one line
 * naming it and exit 2, at once: nothing blocks on a FIFO or streams a device.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGoodput } from '../test-support/goodput-process.js';
import { patient } from '../test-support/patience.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-readers-'));
const zero = join(dir, 'zero.json');
const fifo = join(dir, 'fifo.jsonl');
symlinkSync('/dev/zero', zero);
execFileSync('mkfifo', [fifo]);
writeFileSync(join(dir, 'bom.jsonl'), '\uFEFF{"t": 0, "promptTokens": 8, "outputTokens": 8}\n');
const NOWHERE = 'http://127.0.0.1:1';

const cases: Array<[string, string[], RegExp]> = [
  ['cards, a result linked to /dev/zero', ['cards', zero], /zero\.json is a symbolic link; give the file itself/],
  [
    'runs import, a result that is a FIFO',
    ['runs', 'import', fifo, '--raw', fifo, '--data', join(dir, 'db')],
    /fifo\.jsonl is a FIFO \(named pipe\), not a regular file/,
  ],
  [
    'utilisation, a capacity file that is a device',
    ['utilisation', join(dir, 'bom.jsonl'), '--capacity', '/dev/zero', '--url', NOWHERE, '--no-save'],
    /\/dev\/zero is a device, not a regular file/,
  ],
  ['replay, a trace that is a FIFO', ['replay', fifo, '--url', NOWHERE, '--no-save'], /trace .*fifo\.jsonl is a FIFO \(named pipe\)/],
  [
    'sessions, conversations linked to /dev/zero',
    ['sessions', '--url', NOWHERE, '--conversations', zero, '--levels', '1', '--no-save'],
    /conversations .*zero\.json is a symbolic link/,
  ],
  ['run, a contract that is a FIFO', ['run', fifo, '--no-save'], /fifo\.jsonl is a FIFO \(named pipe\)/],
];

describe('a file that is not a regular file', () => {
  it.each(cases)(
    '%s: exit 2, one line naming it',
    async (_what, args, message) => {
      const r = await runGoodput(args, {}, 30_000);
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    },
    patient(30_000),
  );
});
