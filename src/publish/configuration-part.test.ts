// The configuration section and its limitations from two results: nothing for
// runs recorded before configurations were, each differing condition one
// limitation (round trip from the records, days apart, goodput version,
// client machine), and a side that could not report its configuration said so.
import { describe, expect, it } from 'vitest';
import type { ServerConfiguration, SweepResult } from '../core/index.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { configurationPart, headersRoundTripMs } from './configuration-part.js';
import type { CheckedRun } from './run-pair.js';

const sim = (maxBatch: number): ServerConfiguration => ({
  engine: 'goodput-sim',
  source: 'GET /sim/config',
  settings: [{ name: 'profile.maxBatch', value: maxBatch }],
  note: null,
});
const withConfig = (r: SweepResult, configuration: ServerConfiguration | undefined, over: Partial<SweepResult> = {}): SweepResult => ({
  ...r,
  ...over,
  serverAccount: { models: [], server: null, version: null, props: null, simulator: null, ...(configuration === undefined ? {} : { configuration }) },
});
const part = (b: SweepResult, o: SweepResult) =>
  configurationPart({ baseline: { result: b } as CheckedRun, optimized: { result: o } as CheckedRun }, headersRoundTripMs);

describe('configurationPart', () => {
  const pair = evidencePair();

  it('adds nothing for runs recorded before configurations were', () => {
    expect(part(pair.baseline, pair.optimized)).toEqual({ limitations: [] });
    expect(part(withConfig(pair.baseline, undefined), withConfig(pair.optimized, undefined))).toEqual({ limitations: [] });
  });

  it('states the same conditions as no limitation, and a side that did not report its configuration as one', () => {
    const unreported: ServerConfiguration = {
      engine: 'ollama',
      source: null,
      settings: [],
      note: 'not reported: Ollama has no route goodput reads a configuration from',
    };
    const p = part(withConfig(pair.baseline, sim(256)), withConfig(pair.optimized, unreported));
    expect(p.section).toEqual({
      sources: { baseline: "the goodput simulator's configuration route", optimized: unreported.note },
      rows: [{ setting: 'max batch', baseline: '256', optimized: null, differs: true }],
      handicaps: [],
    });
    expect(p.limitations).toEqual([
      "optimized: the server's configuration is not reported: Ollama has no route goodput reads a configuration from, so differences in it cannot be shown.",
    ]);
  });

  it('names each condition that differs between the sides', () => {
    const slow = (r: SweepResult): SweepResult => ({
      ...r,
      records: r.records?.map((x) => ({ ...x, headersNs: x.headersNs === null ? null : x.headersNs + 40e6 })),
    });
    const b = withConfig(slow(pair.baseline), sim(256), {
      clientMachine: 'linux x64, 2 x EPYC, 8 GiB, Node 22.0.0',
      run: { ...pair.baseline.run, startedAt: '2025-11-13T10:00:00.000Z', toolVersion: '0.1.0' },
    });
    const o = withConfig(pair.optimized, sim(256), {
      clientMachine: 'darwin arm64, 10 x Apple M2, 16 GiB, Node 22.0.0',
      run: { ...pair.optimized.run, toolVersion: '0.2.0' },
    });
    expect(part(b, o).limitations).toEqual([
      "The round trip to the servers differs: the fastest answer's headers came 41.0 ms after its send on the baseline and 1.0 ms on the optimized run, so every latency differs by about that much besides the method.",
      'The sides were measured 202 days apart (baseline 2025-11-13, optimized 2026-06-03); the servers, drivers or network may have changed between them.',
      'The sides were measured by different goodput versions (baseline 0.1.0, optimized 0.2.0).',
      "The sides were measured from different client machines (baseline: linux x64, 2 x EPYC, 8 GiB, Node 22.0.0; optimized: darwin arm64, 10 x Apple M2, 16 GiB, Node 22.0.0); the client's own overhead differs with them.",
    ]);
  });
});
