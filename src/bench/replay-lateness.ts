/**
 * `npm run bench`, replay section: how on time a trace's requests leave. A
 * 2,000-request Mooncake-style trace with bursts and shared prefixes is replayed
 * at its own speed against the simulator in its own process; the send lateness
 * (actual send − scheduled send) is printed per percentile. The target, p99
 * under 5 ms, is judged here, on a quiet machine, not in a test.
 *
 * A served model runs on its own hardware, not on the client's cores: where
 * taskset exists and there are two cores or more, the client is pinned to CPU 0
 * and the simulator to CPU 1, so the figure is our lateness, not the two
 * processes taking turns on one core (on this 2-core machine, unpinned: p99
 * 5–7 ms; pinned: ~3 ms).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSweep } from '../runner/index.js';
import { spawnSimProcess } from '../sim/index.js';
import { stepFlags } from './bench-parts.js';
import { pin } from './pin.js';
import { writeMooncakeTrace } from '../test-support/trace-fixtures.js';
import { readTrace, replayParts } from '../workload/index.js';

const TARGET_P99_MS = 5;

async function main() {
  const path = join(mkdtempSync(join(tmpdir(), 'goodput-bench-replay-')), 'mooncake.jsonl');
  writeMooncakeTrace(path, 2000, 20_000);
  const trace = await readTrace(path);
  const sim = await spawnSimProcess([...stepFlags(2, 2), '--max-batch', '1024']);
  const pinned = pin(sim.child.pid);
  try {
    const result = await runSweep({
      url: sim.url,
      levels: [1],
      warmup: 0,
      cache: 'warm',
      serverMetrics: false,
      ...replayParts(trace, { blockTokens: 512, maxConcurrency: null }),
    });
    const lag = result.levels[0]?.load?.scheduleLagMs;
    if (!lag) throw new Error(`the replay produced no level: ${result.run.stopReason}`);
    const ok = lag.p99 < TARGET_P99_MS;
    process.stdout.write(
      `replay: 2000-request Mooncake trace over 20 s at 1x: send lateness p50 ${lag.p50.toFixed(2)} ms, p99 ${lag.p99.toFixed(2)} ms, max ${lag.max.toFixed(2)} ms ` +
        `(target p99 < ${TARGET_P99_MS} ms: ${ok ? 'met' : 'MISSED'}); ${result.levels[0]?.requests} requests, ${result.levels[0]?.failed} failed; ${pinned}\n`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await sim.stop();
  }
}

await main();
