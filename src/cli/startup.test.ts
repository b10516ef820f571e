// `goodput --help` and `--version` load no command module: the help text is
// rendered at build time (dist/cli/help.txt, built by npm test first) and must
// be exactly what the full program renders, or a stale file would mislead.
import { describe, expect, it } from 'vitest';
import { TOOL_VERSION } from '../runner/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { buildProgram } from './program.js';

describe('start-up without loading commands', () => {
  it('--help and -h print the help every command registers', async () => {
    const live = (await buildProgram(['node', 'goodput', '--help'])).helpInformation();
    expect(live).toContain('verify [options] <site-dir>');
    for (const flag of ['--help', '-h', 'help']) {
      const r = await runGoodput([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(live);
    }
  });

  it("--version prints the package version; a command's own help still loads it", async () => {
    expect((await runGoodput(['--version'])).stdout).toBe(`${TOOL_VERSION}\n`);
    const sweep = await runGoodput(['help', 'sweep']);
    expect(sweep.code).toBe(0);
    expect(sweep.stdout).toMatch(/^Usage: goodput sweep \[options\]/);
  });
});
