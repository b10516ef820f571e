/**
 * What a level held, against the simulator: a client that replaces each
 * request as it ends keeps C open at every replacement; one slowed on purpose
 * (each replacement held back until no other request is open: a client that
 * runs a quarter of the load it was asked) records a median of 1 and is marked,
 * in its warning and the terminal table (web/view/in-flight.test.ts: the page). Counts only: the
 * slowed client's hold is a fact of ordering, not of time.
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { type StreamingClient, createStreamingClient } from '../client/index.js';
import { runSweep } from '../runner/index.js';
import { renderTable } from './render-table.js';

const sim = useSimulators({ prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, port: 0 });
const spec = { outputTokens: 8, promptTokens: 16, requestsPerLevel: 16, warmup: 1, levels: [4], serverMetrics: false, gpuSource: 'none' as const };

/** A client whose replacements (sends past the level's first C) each wait until no other request is open. */
function oneAtATime(url: string, c: number) {
  return (_spec: unknown, connections: number, dialect: Parameters<typeof createStreamingClient>[1]['dialect']): StreamingClient => {
    const real = createStreamingClient({ baseUrl: url }, { connections, ...(dialect ? { dialect } : {}) });
    let measured = 0;
    let open = 0;
    let waiting: Array<() => void> = [];
    return {
      ...real,
      send: async (req, meta, signal) => {
        if (!meta.warmup && ++measured > c) while (open > 0) await new Promise<void>((wake) => waiting.push(wake));
        open++;
        const r = await real.send(req, meta, signal);
        open--;
        const woken = waiting;
        waiting = [];
        for (const wake of woken) wake();
        return r;
      },
    };
  };
}

describe('the load a level held', () => {
  it('is C at every replacement of a client that keeps up: held, not marked', async () => {
    const s = await sim();
    const result = await runSweep({ ...spec, url: s.url, clientThreads: 1 }, {});
    const level = result.levels[0];
    expect(level?.inFlight).toEqual({ median: 4, min: 4, asked: 4, held: 1, samples: 12 });
    expect(result.warnings.map((w) => w.code)).not.toContain('concurrency-not-held');
    expect(renderTable(result.levels, false).split('\n')[1]).toMatch(/^ +4 +.* 4 \/ 4 +0 /);
  });

  it('is below C for a client slowed between a slot freeing and its next send, and the level is marked', async () => {
    const s = await sim();
    const result = await runSweep({ ...spec, url: s.url }, { client: oneAtATime(s.url, 4) });
    const level = result.levels[0];
    expect(level?.inFlight).toEqual({ median: 1, min: 1, asked: 4, held: 0.25, samples: 12 });
    expect(result.warnings.find((w) => w.code === 'concurrency-not-held')?.message).toBe(
      'concurrency 4: our client kept 1 of 4 at the median (25 %), 1 at least, over 12 sends: below 95 % of the concurrency asked, so the level measured less load than it says',
    );
    const table = renderTable(result.levels, false).split('\n');
    // The figures read first stay first; what was held sits before the failures.
    expect(table[0]).toMatch(/^Concurrency +Throughput tok\/s .* In flight p50 \/ min +Failed /);
    expect(table[1]).toMatch(/^ +4 +.* 1 \/ 1 ! +0 /);
    // Such a client may also be client-bound, whose verdict the status puts first; without it the status says not held.
    const unbound = {
      ...(level as NonNullable<typeof level>),
      clientBound: { ...(level?.clientBound as NonNullable<typeof level>['clientBound']), bound: false },
    };
    expect(renderTable([unbound], false).split('\n')[1]).toMatch(/ not held: 25 % of 4 in flight$/);
  });
});
