import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract, level, resultOf } from '../test-support/receipt-fixture.js';
import { threeQuantizations } from '../test-support/quantization-runs.js';
import { renderComparison, renderRuns } from './compare-results.js';
import { compareRunOf, compareRuns, sideTables } from '../web/index.js';
import type { EnergyLevel, LevelResult, SpecDecode, SweepResult } from '../core/index.js';
import { FLEET_URLS, disaggFixture, targetsFixture } from '../test-support/server-parts.js';
import { cli } from '../test-support/cli-in-process.js';

const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };

describe('renderComparison (goodput rerun, goodput compare)', () => {
  const a = resultOf(contract(), [level({ c: 1, ...spec }), level({ c: 2, ...spec, tokS: 180 })]);
  const b = resultOf(contract(), [level({ c: 1, ...spec, tokS: 120 }), level({ c: 2, ...spec, tokS: 360, failed: 3 })]);
  const text = renderComparison(a, b, ['a', 'b']);
  const lines = text.split('\n');

  it('says what differs first, then one table per figure aligned on the level axis with a column per run, a Failed table and a Status table', () => {
    expect(lines[0]).toBe('Comparing a (baseline), b');
    expect(text.indexOf('Same contract')).toBeLessThan(text.indexOf('Concurrency'));
    const table = (title: string) => lines.slice(lines.indexOf(title) + 1, lines.indexOf(title) + 5);
    expect(lines.slice(1, 4)).toEqual(['Runs (each column below is one; A is the baseline):', '  A  a', '  B  b']);
    expect(table('Throughput tok/s (tokens ÷ duration)')[0]).toMatch(/^Concurrency\s+A \(baseline\)\s+B$/);
    expect(table('Throughput tok/s (tokens ÷ duration)')[3]).toMatch(/^2\s+180\.0\s+360\.0$/);
    expect(table('Failed (count)')[3]).toMatch(/^2\s+0\s+3$/);
    const status = lines.find((l) => l.startsWith('Status'));
    expect(table(status as string)[3]).toMatch(/^2\s+ok\s+failed 3$/);
    expect(lines).toContain('  B at concurrency 2: invalid: 3 of 8 failed (timeout 3)');
  });

  it('gives no difference for an invalid level, saying whose', () => {
    // Not compared in any figure: said once for the level.
    expect(lines.filter((l) => l.startsWith('  concurrency 2'))).toEqual(['  concurrency 2: not compared: b is invalid at this level (3 failed)']);
  });

  it("words a valid level's difference with the one rule: no records, so no direction is established", () => {
    // These results kept no request records: the change is shown, but never called better.
    expect(lines.find((l) => l.startsWith('  concurrency 1, Throughput'))).toBe(
      '  concurrency 1, Throughput tok/s (tokens ÷ duration): +20.0 tok/s (+20 %): no difference established (no request',
    );
    expect(lines.filter((l) => l.startsWith('  concurrency')).some((l) => /: (better|worse)$/.test(l))).toBe(false);
  });
});

describe('goodput compare in a terminal', () => {
  const results = threeQuantizations();
  const labels = ['stories260K-F32-run-with-a-long-name.json', 'stories260K-Q8_0-run-with-a-long-name.json', 'stories260K-F16-run-with-a-long-name.json'];
  const text = renderRuns(results.map((r, i) => compareRunOf(labels[i] as string, r)));
  const lines = text.split('\n');

  it('fits 120 columns: three runs, long model file names, long client-bound reasons', () => {
    if (process.env['SHOW_COMPARE']) console.log(text);
    const wide = lines.filter((l) => [...l].length > 120);
    expect(wide, wide.join('\n')).toEqual([]);
    // The long reason is still there in full, wrapped.
    expect(text.replace(/\n\s*/g, ' ')).toContain('client CPU 97 % of one core during the level');
  });

  it('lists the model file, precision and quantization under What differs, and names each run by them', () => {
    const what = lines
      .slice(
        lines.indexOf('What differs:'),
        lines.findIndex((l) => l.startsWith('Side by side')),
      )
      .join('\n');
    for (const field of ['model file', 'precision', 'quantization']) expect(what).toMatch(new RegExp(`^${field}\\s`, 'm'));
    expect(what.replace(/\n\s*/g, '')).toContain('F16.gguf');
    expect(what).toMatch(/^quantization\s+none\s+Q8_0\s+F16$/m);
    const runs = text.slice(text.indexOf('Runs ('), text.indexOf('What differs:')).replace(/\n\s+(?![A-C] )/g, ' ');
    expect(runs).toContain('  B  stories260K-Q8_0-run-with-a-long-name.json · stories260K-a-rather-long-model-file-name-for-a-test-Q8_0.gguf · f32 · Q8_0');
    expect(runs).toContain(
      '  A  stories260K-F32-run-with-a-long-name.json · stories260K-a-rather-long-model-file-name-for-a-test-F32.gguf · f32 · no quantization',
    );
  });

  it('gives no verdict on the client-bound level, saying whose', () => {
    const at4 = lines.filter((l) => l.startsWith('  concurrency 4'));
    expect(at4).toHaveLength(2);
    for (const l of at4) expect(l).toMatch(/^ {2}concurrency 4: not compared: stories260K-F32-run-with-a-long-name\.json is client-bound at this level/);
    expect(text).not.toMatch(/concurrency 4, .*: (better|worse)$/m);
  });
});

describe('goodput compare with speculative decoding and energy', () => {
  const speculative = (acceptanceLength: number, tokensPerChunk: number, agrees: boolean): SpecDecode => ({
    source: 'vllm-counters',
    acceptanceLength,
    acceptanceRate: (acceptanceLength - 1) / 4,
    perPosition: [],
    counters: { drafts: 100, draftTokens: 400, acceptedTokens: (acceptanceLength - 1) * 100 },
    client: { tokensPerChunk, chunks: 100, exact: true },
    agrees,
  });
  const energy = (joulesPerOutputToken: number | null, reason: string | null = null): EnergyLevel => ({
    source: 'nvidia-smi',
    valid: reason === null,
    reason,
    windowMs: 2000,
    samples: 10,
    outside: 2,
    intervalMs: 200,
    coverage: 0.95,
    method: 'power',
    joules: joulesPerOutputToken === null ? null : joulesPerOutputToken * 100,
    meanPowerW: joulesPerOutputToken === null ? null : joulesPerOutputToken * 50,
    outputTokens: 100,
    inputTokens: null,
    joulesPerOutputToken,
    joulesPerInputToken: null,
    joulesPerTotalToken: null,
  });
  const gap = 'no reading from 400 ms to 1.60 s into the window (1.20 s, more than 3 × the 200 ms interval)';
  const withFigures = (l: LevelResult, s: SpecDecode, e: EnergyLevel): LevelResult => ({ ...l, specDecode: s, energy: e });
  const a = resultOf(contract(), [withFigures(level({ c: 1, ...spec }), speculative(2.4, 2.38, true), energy(1.25)), level({ c: 2, ...spec })]);
  const b = resultOf(contract(), [
    withFigures(level({ c: 1, ...spec }), speculative(3.1, 1, false), energy(0.75)),
    withFigures(level({ c: 2, ...spec }), speculative(3, 2.9, true), energy(null, gap)),
  ]);
  const text = renderRuns([compareRunOf('a', a), compareRunOf('b', b)]);
  const lines = text.split('\n');

  it('sets the acceptance length, ours and the J per output token of each level side by side, and names each disagreement and energy not valid', () => {
    const at = lines.indexOf('Speculative decoding and energy:');
    expect(at).toBeGreaterThan(lines.findIndex((l) => l.startsWith('B against A')));
    const table = (title: string) => lines.slice(lines.indexOf(title, at) + 1, lines.indexOf(title, at) + 5);
    expect(table('Acceptance length (rate)')[0]).toMatch(/^Concurrency\s+A \(baseline\)\s+B$/);
    expect(table('Acceptance length (rate)').slice(2)).toEqual([
      expect.stringMatching(/^1\s+2\.40 \(rate 0\.350\)\s+3\.10 \(rate 0\.525\)$/),
      expect.stringMatching(/^2\s+—\s+3\.00 \(rate 0\.500\)$/),
    ]);
    expect(table('Ours: tokens per chunk')[2]).toMatch(/^1\s+2\.38 agrees\s+1\.00 disagrees \(±5 %\)$/);
    expect(table('J/output token (measured window)').slice(2)).toEqual([
      expect.stringMatching(/^1\s+1\.250\s+0\.750$/),
      expect.stringMatching(/^2\s+—\s+not valid$/),
    ]);
    expect(lines).toContain("  b at concurrency 1: the server's acceptance length 3.10 and our 1.00 tokens per chunk disagree by more than ±5 %");
    // Wrapped at 120 columns, in full.
    expect(text.replace(/\n\s+/g, ' ')).toContain(` b at concurrency 2: energy not valid: ${gap}`);
    expect(lines.filter((l) => [...l].length > 120)).toEqual([]);
    // In the model the page, the report and --json read: one value per level and run, no verdict.
    const side = compareRuns([compareRunOf('a', a), compareRunOf('b', b)]).serverSide;
    expect(side?.headers).toEqual(['Acceptance length (rate)', 'Ours: tokens per chunk', 'J/output token (measured window)']);
    expect(side?.basis).toMatch(/so no difference or verdict is computed from them/);
  });

  it('adds nothing to a comparison of runs without them', () => {
    const plain = [compareRunOf('a', resultOf(contract(), [level({ c: 1, ...spec })])), compareRunOf('b', resultOf(contract(), [level({ c: 1, ...spec })]))];
    expect(compareRuns(plain).serverSide).toBeNull();
    expect(renderRuns(plain)).not.toContain('Speculative decoding');
  });
});

describe('goodput compare with disaggregated pools and fleet targets', () => {
  const plain = resultOf(contract(), [level({ c: 1, ...spec }), level({ c: 4, ...spec })]);
  const withPools = resultOf(contract({ label: 'pools' }), [
    { ...level({ c: 1, ...spec }), disagg: { ...disaggFixture(), kvTransfer: null } },
    { ...level({ c: 4, ...spec }), disagg: disaggFixture(2) },
  ]);
  const fleet = resultOf(contract({ label: 'fleet' }), [
    { ...level({ c: 1, ...spec }), targets: targetsFixture().map((t) => ({ ...t, ttftMs: { p50: 20, p99: 40 } })) },
    { ...level({ c: 4, ...spec }), targets: targetsFixture() },
  ]);
  fleet.run = { ...fleet.run, fleet: { urls: FLEET_URLS, route: 'least-in-flight' } };
  const runs = [compareRunOf('one', plain), compareRunOf('split', withPools), compareRunOf('three', fleet)];
  const text = renderRuns(runs);
  const lines = text.split('\n');
  const table = (section: string, title: string) => {
    const at = lines.indexOf(title, lines.indexOf(section));
    return lines.slice(at + 1, at + 5);
  };
  const POOL_HEADERS = ['Prefill: prompt tok/s (per GPU)', 'Decode: output tok/s (per GPU)', 'KV Gbit/s: level / transferring', 'TTFT split ms (of ours)'];

  it("sets each pool's rates, the KV rate and the TTFT split side by side, a run without pools as not disaggregated, and names what a cell cannot say", () => {
    const at = lines.indexOf('Disaggregated pools:');
    expect(at).toBeGreaterThan(lines.findIndex((l) => l.startsWith('C against A')));
    expect(table('Disaggregated pools:', 'Prefill: prompt tok/s (per GPU)').slice(2)).toEqual([
      expect.stringMatching(/^1\s+not disaggregated\s+2,000 \(1,000 per GPU\)\s+not disaggregated$/),
      expect.stringMatching(/^4\s+not disaggregated\s+4,000 \(2,000 per GPU\)\s+not disaggregated$/),
    ]);
    expect(table('Disaggregated pools:', 'Decode: output tok/s (per GPU)')[3]).toMatch(/^4\s+—\s+3,000\s+—$/);
    expect(table('Disaggregated pools:', 'KV Gbit/s: level / transferring').slice(2)).toEqual([
      expect.stringMatching(/^1\s+—\s+—\s+—$/),
      expect.stringMatching(/^4\s+—\s+1\.000 \/ 8\.000 \(of 100\)\s+—$/),
    ]);
    expect(table('Disaggregated pools:', 'TTFT split ms (of ours)')[3]).toMatch(/^4\s+—\s+12\.5 \+ 40\.0 \+ 31\.3 \+ 36\.3 \(of 120\.0\)\s+—$/);
    expect(lines).toContain('  split at concurrency 4: the router pool has no figures: not found at the start: HTTP 404');
    expect(text.replace(/\n\s+/g, ' ')).toContain(
      " split at concurrency 1: no KV transfer counted (goodput reads vLLM's NIXL histograms and SGLang's transfer latency)",
    );
    expect(lines.filter((l) => [...l].length > 120)).toEqual([]);
  });

  it("sets each target's requests, failures, throughput and TTFT side by side, a run on one server as such, and names the fleet's order and its slow target", () => {
    expect(lines.indexOf('Fleet targets:')).toBeGreaterThan(lines.indexOf('Disaggregated pools:'));
    expect(table('Fleet targets:', 'Targets: requests each').slice(2)).toEqual([
      expect.stringMatching(/^1\s+one server\s+one server\s+3 \/ 3 \/ 2$/),
      expect.stringMatching(/^4\s+one server\s+one server\s+3 \/ 3 \/ 2$/),
    ]);
    expect(table('Fleet targets:', 'Throughput tok/s each')[3]).toMatch(/^4\s+—\s+—\s+40\.0 \/ 40\.0 \/ 20\.0$/);
    expect(table('Fleet targets:', 'TTFT p50 ms each')[3]).toMatch(/^4\s+—\s+—\s+20\.0 \/ 20\.0 \/ 80\.0$/);
    const flat = text.replace(/\n\s+/g, ' ');
    expect(flat).toContain(` three: 3 targets routed least-in-flight, in this order: ${FLEET_URLS.join(', ')}`);
    expect(flat).toContain(' three at concurrency 4: http://10.0.0.3:8000 is slow: TTFT p50 80.0 ms against 20.0 ms on the others (4.0×)');
    expect(flat).not.toContain('three at concurrency 1: http');
  });

  it('is in the model the page, the report and --json read, one value per level and run with no verdict, and absent where no run carries them', () => {
    const c = compareRuns(runs);
    expect(c.pools?.headers).toEqual(POOL_HEADERS);
    expect(c.pools?.basis).toMatch(/so no difference or verdict is computed from them/);
    expect(c.fleet?.rows[1]?.runs[2]).toEqual(['3 / 3 / 2', '0 / 0 / 0', '40.0 / 40.0 / 20.0', '20.0 / 20.0 / 80.0']);
    expect(c.fleet?.basis).toMatch(/recomputed from the run's records/);
    expect(sideTables(c).map((t) => t.title)).toEqual(['Disaggregated pools', 'Fleet targets']);
    const two = compareRuns([compareRunOf('a', plain), compareRunOf('b', plain)]);
    expect([two.pools, two.fleet]).toEqual([null, null]);
    expect(renderRuns([compareRunOf('a', plain), compareRunOf('b', plain)])).not.toMatch(/Disaggregated pools|Fleet targets/);
  });

  it('--json carries pools and fleet only when a run does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'goodput-compare-parts-'));
    const write = (name: string, r: SweepResult) => {
      writeFileSync(join(dir, name), JSON.stringify(r));
      return join(dir, name);
    };
    const [a, b, c] = [write('one.json', plain), write('split.json', withPools), write('three.json', fleet)];
    const parts = await cli(['compare', a, b, c, '--json']);
    expect(parts.code, parts.stderr).toBe(0);
    const json = JSON.parse(parts.stdout) as { pools?: { headers: string[] }; fleet?: { notes: string[] } };
    expect(json.pools?.headers).toEqual(POOL_HEADERS);
    expect(json.fleet?.notes[0]).toBe(`three.json: 3 targets routed least-in-flight, in this order: ${FLEET_URLS.join(', ')}`);
    const none = await cli(['compare', a, write('one-again.json', plain), '--json']);
    expect(none.code, none.stderr).toBe(0);
    expect(Object.keys(JSON.parse(none.stdout) as object)).not.toContain('pools');
    expect(Object.keys(JSON.parse(none.stdout) as object)).not.toContain('fleet');
  });
});
