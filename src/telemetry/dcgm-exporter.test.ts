/**
 * The DCGM exporter source against a fake exporter served on 127.0.0.1: parsing,
 * sentinel rejection, the energy counter, and the warning when the exporter does
 * not update within a level.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { summarizeGpu } from '../core/index.js';
import { parsePrometheusText } from '../core/index.js';
import { type TextServer, startTextServer } from '../test-support/text-server.js';
import { dcgmSource, isDcgmSentinel, parseDcgm } from './dcgm-exporter.js';

const labels = (gpu: number) => `gpu="${gpu}",UUID="GPU-${gpu}",device="nvidia${gpu}",modelName="NVIDIA H100 80GB HBM3",Hostname="h"`;
function exposition(v: { used: [number, number]; power: [number | string, number | string]; energyMj: [number, number] }): string {
  const line = (name: string, a: number | string, b: number | string) => `${name}{${labels(0)}} ${a}\n${name}{${labels(1)}} ${b}`;
  return (
    [
      '# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).',
      '# TYPE DCGM_FI_DEV_FB_USED gauge',
      line('DCGM_FI_DEV_FB_USED', ...v.used),
      line('DCGM_FI_DEV_FB_FREE', 11000, 10000),
      line('DCGM_FI_DEV_FB_RESERVED', 559, 559),
      line('DCGM_FI_DEV_GPU_UTIL', 90, 100),
      line('DCGM_FI_DEV_POWER_USAGE', ...v.power),
      '# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter',
      line('DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', ...v.energyMj),
    ].join('\n') + '\n'
  );
}

let servers: TextServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function exporter(body: () => string) {
  const s = await startTextServer((path) => (path === '/metrics' ? { body: body() } : null));
  servers.push(s);
  return s;
}

describe('DCGM exporter text', () => {
  it('sums memory, power and energy (mJ → J) over GPUs, averages utilisation, total = used + free + reserved', () => {
    const { reading, rejected } = parseDcgm(parsePrometheusText(exposition({ used: [70000, 71000], power: [600.5, 599.5], energyMj: [1e9, 2e9] })));
    expect(rejected).toEqual([]);
    expect(reading).toEqual({
      name: '2× NVIDIA H100 80GB HBM3',
      usedMiB: 141000,
      totalMiB: 163118,
      utilizationPct: 95,
      powerW: 1200,
      energyJ: 3e6,
    });
  });
  it('rejects no-data sentinels (the README example 9223372036854775794) instead of using them', () => {
    const { reading, rejected } = parseDcgm(
      parsePrometheusText(exposition({ used: [70000, 2147483632], power: [600.5, '9223372036854775794'], energyMj: [1e9, 2e9] })),
    );
    expect(reading).toMatchObject({ usedMiB: null, powerW: null, energyJ: 3e6 });
    expect(rejected).toHaveLength(2);
    expect(rejected.join(' ')).toMatch(/DCGM_FI_DEV_FB_USED of GPU 1 \(2147483632\)/);
    expect(rejected.join(' ')).toMatch(/DCGM_FI_DEV_POWER_USAGE of GPU 1/);
  });
  it('knows the sentinel families', () => {
    expect(isDcgmSentinel(Number('9223372036854775794'), false)).toBe(true); // as text, the README example
    expect(isDcgmSentinel(140737488355328, false)).toBe(true); // fp64 blank
    expect(isDcgmSentinel(2147483632, true)).toBe(true); // int32 blank
    expect(isDcgmSentinel(2147483632, false)).toBe(false); // a large energy counter is real
    expect(isDcgmSentinel(-1, false)).toBe(true);
    expect(isDcgmSentinel(80000, true)).toBe(false);
  });
  it('reads nothing from an exposition without DCGM series', () => {
    expect(parseDcgm(parsePrometheusText('node_load1 0.5')).reading).toBeNull();
  });
});

describe('DCGM exporter source', () => {
  it('polls the exporter; the energy counter gives the energy', async () => {
    let n = 0;
    const s = await exporter(() => {
      n++;
      return exposition({ used: [1000 + n, 1000], power: [100, 100], energyMj: [1e6 + n * 2000, 1e6 + n * 2000] });
    });
    const source = dcgmSource(`${s.url}/metrics`, 20);
    source.start();
    // Until the exporter has been read a few times (bounded): a loaded machine may fire a 20 ms timer far fewer times in 250 ms.
    for (let i = 0; i < 400 && n < 4; i++) await new Promise((r) => setTimeout(r, 25));
    const c = await source.stop();
    expect(c.source).toBe('dcgm-exporter');
    expect(c.intervalMs).toBe(20);
    expect(c.samples.length).toBeGreaterThanOrEqual(3);
    expect(c.warnings).toEqual([]);
    const { gpu } = summarizeGpu(c, { durationMs: 1000, outputTokens: 100 });
    expect(gpu).toMatchObject({ available: true, energyMethod: 'counter' });
    expect(s.requests.every((r) => r === 'GET /metrics')).toBe(true);
  });
  it("warns when the exporter's values never change during the level (collect interval longer than the level)", async () => {
    const s = await exporter(() => exposition({ used: [1000, 1000], power: [100, '9223372036854775794'], energyMj: [5, 5] }));
    const source = dcgmSource(`${s.url}/metrics`, 20);
    source.start();
    await new Promise((r) => setTimeout(r, 200));
    const c = await source.stop();
    expect(c.warnings[0]).toMatch(/did not change in \d+ readings .*collect interval \(30000 ms by default\) is longer than the level/);
    expect(c.notes[0]).toMatch(/rejected DCGM no-data sentinel values: DCGM_FI_DEV_POWER_USAGE of GPU 1/);
    const { gpu } = summarizeGpu(c, { durationMs: 1000, outputTokens: 100 });
    expect(gpu).toMatchObject({ powerW: null, energyJ: null });
  });
  it('says why when the exporter cannot be read or is not a DCGM exporter', async () => {
    const s = await exporter(() => 'node_load1 0.5\n');
    const wrong = dcgmSource(`${s.url}/metrics`, 20);
    wrong.start();
    expect((await wrong.stop()).reason).toMatch(/has no DCGM_FI_DEV_\* GPU series/);
    const gone = dcgmSource('http://127.0.0.1:9/metrics', 20);
    gone.start();
    expect((await gone.stop()).reason).toMatch(/^DCGM exporter at http:\/\/127\.0\.0\.1:9\/metrics: ECONNREFUSED/);
  });
});
