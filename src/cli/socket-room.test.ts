/**
 * A level this process could not open sockets for is refused before anything
 * is sent, saying the limit is ours: parsed from /proc/self/limits, and for real
 * under `ulimit -n 256`.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startCommand } from '../test-support/goodput-process.js';
import { FD_HEADROOM, openFilesLimit, refuseLevelsPastFileLimit } from './socket-room.js';
import { patient } from '../test-support/patience.js';

const runShell = (script: string): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', script], { timeout: patient(10_000) }, (err, out) => (err ? reject(err) : resolve(out)));
  });

describe('sockets for a level', () => {
  it('reads the soft limit on open files and refuses a closed-loop level past it, naming both', () => {
    expect(
      openFilesLimit(
        'Max cpu time              unlimited            unlimited            seconds\nMax open files            1024                 4096                 files\n',
      ),
    ).toBe(1024);
    expect(openFilesLimit('Max open files            unlimited            unlimited            files\n')).toBeNull();
    expect(() => refuseLevelsPastFileLimit([8, 1024 - FD_HEADROOM], 'concurrency', 1024)).not.toThrow();
    expect(() => refuseLevelsPastFileLimit([8, 1024 - FD_HEADROOM + 1], 'concurrency', 1024)).toThrow(
      `--levels: a level of ${1024 - FD_HEADROOM + 1} streams needs ${1024 - FD_HEADROOM + 1} sockets plus ${FD_HEADROOM} files of goodput's own, but this process may open only 1024 (ulimit -n): that is our limit, not the server's`,
    );
    // Open loops are bounded by --max-concurrency, not the level's value.
    expect(() => refuseLevelsPastFileLimit([5000], 'rate', 1024)).not.toThrow();
  });

  it('a soft limit under the hard one is raised to it at start, so the check reads the raised one', async () => {
    // Node raises the soft RLIMIT_NOFILE to the hard one before any of our code runs; the hard one is the ceiling.
    const hard = Number((await runShell('ulimit -Hn')).trim());
    const seen = await runShell(
      `ulimit -Sn 256 && exec "${process.execPath}" -e "process.stdout.write(String(require('node:fs').readFileSync('/proc/self/limits','utf8').match(/^Max open files\\s+(\\d+)/m)[1]))"`,
    );
    expect(Number(seen)).toBe(hard);
    expect(hard).toBeGreaterThan(256);
  });

  it(
    'under ulimit -n 256, a sweep at 512 streams exits 2 before sending, naming our limit',
    async () => {
      const p = startCommand(
        '/bin/sh',
        ['-c', `ulimit -n 256 && exec "${process.execPath}" --import tsx src/cli/main.ts sweep --url http://127.0.0.1:1 --levels 512 --no-save`],
        { cwd: new URL('../../', import.meta.url).pathname, env: process.env },
      );
      expect(await p.closed).toBe(2);
      expect(p.out().stderr).toMatch(
        /a level of 512 streams needs 512 sockets plus 128 files of goodput's own, but this process may open only 256 \(ulimit -n\): that is our limit, not the server's/,
      );
    },
    patient(30_000),
  );
});
