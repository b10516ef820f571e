/**
 * A server that dies mid-sweep (exit 3): the terminal shows the levels that
 * finished, or says plainly that none did, never a table's header alone.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { useSimulators } from '../test-support/simulators.js';
import { EXIT } from './exit-codes.js';

const sim = useSimulators({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 0.5, decodeMsPerExtraSeq: 0, port: 0 });
const QUICK = ['--prompt-tokens', '16', '--output-tokens', '8', '--requests-per-level', '4', '--warmup', '1', '--no-save', '--client-threads', '1'];
const HEADER = /^Concurrency +Throughput tok\/s/m;

describe('goodput sweep against a server that dies (exit 3)', () => {
  it('shows the levels that finished, then why the sweep stopped', async () => {
    // Level 1: 1 warm-up + 4; level 2: 1 + 4; the server dies during level 4.
    const s = await sim({ faults: { dieAfterRequests: 12 } });
    const r = await cli(['sweep', '--url', s.url, '--levels', '1,2,4', ...QUICK]);
    expect(r.code).toBe(EXIT.serverFailed);
    expect(r.stdout).toMatch(HEADER);
    expect(r.stdout).toMatch(/^ {10}1 +\d+\.\d/m);
    expect(r.stdout).toMatch(/^ {10}2 +\d+\.\d/m);
    expect(r.stdout).not.toMatch(/^ {10}4 /m);
    expect(r.stdout).toMatch(/Sweep server-failed: the server stopped answering during the concurrency 4 level, .*[^.]\. Levels 1, 2 are complete\./);
  });

  it('says plainly that no level finished when the server died in the first', async () => {
    const s = await sim({ faults: { dieAfterRequests: 3 } });
    const r = await cli(['sweep', '--url', s.url, '--levels', '1,2', ...QUICK]);
    expect(r.code).toBe(EXIT.serverFailed);
    expect(r.stdout).not.toMatch(HEADER);
    expect(r.stdout).toContain('No level finished: nothing was measured, so there is no table and no card.');
    expect(r.stdout).not.toMatch(/^Engine /m);
    expect(r.stdout).toMatch(/Sweep server-failed: .*No level was completed\.$/m);
  });
});
