/**
 * The sweep's telemetry flags: every bad value or combination is refused with a
 * message naming the flag, and (as a process) with exit code 2 and nothing written.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimulator } from '../sim/index.js';
import { telemetryFromFlags } from './telemetry-flags.js';

const flags = (over: Partial<Parameters<typeof telemetryFromFlags>[0]> = {}) => ({
  gpuSource: 'auto',
  serverMetrics: true,
  metricsIntervalMs: '1000',
  ...over,
});

describe('telemetry flags', () => {
  it('defaults: auto GPU source, server metrics on, probed path, 1 s gauges', () => {
    expect(telemetryFromFlags(flags())).toEqual({ gpuSource: 'auto', dcgmUrl: null, metricsUrl: null, serverMetrics: true, metricsIntervalMs: 1000 });
    expect(telemetryFromFlags(flags({ gpuSource: 'dcgm', dcgmUrl: 'http://gpu:9400/metrics/' }))).toMatchObject({
      gpuSource: 'dcgm',
      dcgmUrl: 'http://gpu:9400/metrics',
    });
    expect(telemetryFromFlags(flags({ serverMetrics: false }))).toMatchObject({ serverMetrics: false });
  });
  const bad: Array<[string, Partial<Parameters<typeof telemetryFromFlags>[0]>, string]> = [
    ['an unknown GPU source', { gpuSource: 'nvml' }, "--gpu-source: 'nvml' is not one of auto, nvidia-smi, dcgm, amd-smi, rocm-smi, engine, none"],
    ['dcgm without a URL', { gpuSource: 'dcgm' }, "--gpu-source: dcgm needs --dcgm-url (the exporter's metrics URL, e.g. http://gpu-host:9400/metrics)"],
    ['a DCGM URL that is not a URL', { dcgmUrl: 'gpu-host:9400' }, "--dcgm-url: 'gpu-host:9400' must use http or https"],
    [
      'a DCGM URL with another source',
      { gpuSource: 'nvidia-smi', dcgmUrl: 'http://gpu:9400/metrics' },
      '--dcgm-url: is only read with --gpu-source dcgm or auto, not nvidia-smi',
    ],
    ['a metrics URL that is not a URL', { metricsUrl: ['not a url'] }, "--metrics-url: 'not a url' is not a URL (e.g. http://127.0.0.1:8000)"],
    [
      'a metrics URL with metrics off',
      { metricsUrl: ['http://h/metrics'], serverMetrics: false },
      '--metrics-url: cannot be combined with --no-server-metrics',
    ],
    [
      "the server's metrics URL twice",
      { metricsUrl: ['http://h/metrics', 'http://g/metrics'] },
      "--metrics-url: the server's endpoint is given twice (http://h/metrics); a pool's is given as ROLE=URL with prefill, decode, router",
    ],
    ['an unknown role', { metricsUrl: ['encode=http://h/metrics'] }, "--metrics-url: 'encode' is not a role: one of prefill, decode, router"],
    ['a role twice', { metricsUrl: ['decode=http://a/metrics', 'decode=http://b/metrics'] }, "--metrics-url: the decode pool's endpoint is given twice"],
    ["a role's URL that is not a URL", { metricsUrl: ['prefill=h:1/metrics'] }, "--metrics-url: 'h:1/metrics' must use http or https"],
    [
      'a role with metrics off',
      { metricsUrl: ['prefill=http://p/metrics'], serverMetrics: false },
      '--metrics-url: cannot be combined with --no-server-metrics',
    ],
    ['pool GPUs without pools', { poolGpus: 'prefill=2' }, '--pool-gpus: needs the pools: --metrics-url ROLE=URL'],
    ['a link without pools', { kvLinkGbps: '100' }, '--kv-link-gbps: needs the pools whose KV transfer it bounds: --metrics-url ROLE=URL'],
    [
      'GPUs of a pool not given',
      { metricsUrl: ['prefill=http://p/metrics'], poolGpus: 'decode=4' },
      "--pool-gpus: 'decode=4' names no pool given with --metrics-url ROLE=URL (prefill)",
    ],
    [
      'GPUs of a pool twice',
      { metricsUrl: ['prefill=http://p/metrics'], poolGpus: 'prefill=2,prefill=3' },
      "--pool-gpus: the prefill pool's GPUs are given twice",
    ],
    [
      'GPUs that are no count',
      { metricsUrl: ['prefill=http://p/metrics'], poolGpus: 'prefill=1.5' },
      "--pool-gpus: 'prefill=1.5': the GPUs of a pool are a whole number, at least 1",
    ],
    // Before: Number() read these as 16 and 1,000 GPUs.
    [
      'GPUs written in hex',
      { metricsUrl: ['prefill=http://p/metrics'], poolGpus: 'prefill=0x10' },
      "--pool-gpus: 'prefill=0x10': the GPUs of a pool are a whole number, at least 1",
    ],
    [
      'GPUs in exponent form',
      { metricsUrl: ['prefill=http://p/metrics'], poolGpus: 'prefill=1e3' },
      "--pool-gpus: 'prefill=1e3': the GPUs of a pool are a whole number, at least 1",
    ],
    [
      'GPUs past the limit',
      { metricsUrl: ['prefill=http://p/metrics'], poolGpus: 'prefill=100001' },
      '--pool-gpus: prefill GPUs 100001 is above the limit of 100000 GPUs in one pool of a disaggregated server (--pool-gpus)',
    ],
    ['a link of 0', { metricsUrl: ['decode=http://d/metrics'], kvLinkGbps: '0' }, "--kv-link-gbps: '0' must be greater than 0"],
    ['a gauge interval below 100 ms', { metricsIntervalMs: '50' }, "--metrics-interval-ms: '50' must be at least 100"],
  ];
  it("takes the pools' endpoints by role beside the server's own, with their GPUs and the link", () => {
    const out = telemetryFromFlags(
      flags({ metricsUrl: ['router=http://r:8000/metrics', 'http://h/metrics', 'prefill=http://p:8000/metrics/'], poolGpus: 'prefill=2', kvLinkGbps: '400' }),
    );
    expect(out.metricsUrl).toBe('http://h/metrics');
    expect(out.disagg).toEqual({
      roles: [
        { role: 'router', url: 'http://r:8000/metrics', gpus: null },
        { role: 'prefill', url: 'http://p:8000/metrics', gpus: 2 },
      ],
      kvLinkGbps: 400,
    });
    expect('disagg' in telemetryFromFlags(flags({ metricsUrl: ['http://h/metrics?a=b'] }))).toBe(false);
  });
  for (const [what, over, message] of bad) {
    it(`refuses ${what}`, () => {
      expect(() => telemetryFromFlags(flags(over))).toThrow(message);
    });
  }
});

describe('as a process', () => {
  const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('timed out'));
      }, 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });
  it('a bad --gpu-source exits 2 with the message and writes nothing', async () => {
    const json = join(mkdtempSync(join(tmpdir(), 'goodput-telemetry-')), 'r.json');
    const r = await run(['sweep', '--url', 'http://127.0.0.1:9', '--gpu-source', 'nvml', '--json', json]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--gpu-source: 'nvml' is not one of auto, nvidia-smi, dcgm/);
    expect(existsSync(json)).toBe(false);
  });

  const sims: SimServer[] = [];
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.close()));
  });
  it('a KV transfer faster than the declared link exits 2 naming the figures, and writes nothing', async () => {
    const fast = { prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0, port: 0 };
    const prefill = await startSimulator({ ...fast, disagg: { role: 'prefill' } });
    // The decode pool reads KV at 10 Gbit/s; the sweep declares a 1 Gbit/s link.
    const decode = await startSimulator({ ...fast, disagg: { role: 'decode', linkGbps: 10 } });
    const router = await startSimulator({ ...fast, disagg: { role: 'router', prefillUrl: prefill.url, decodeUrl: decode.url } });
    sims.push(router, prefill, decode);
    const json = join(mkdtempSync(join(tmpdir(), 'goodput-telemetry-')), 'r.json');
    const r = await run([
      'sweep',
      '--url',
      router.url,
      '--metrics-url',
      `prefill=${prefill.url}/metrics`,
      '--metrics-url',
      `decode=${decode.url}/metrics`,
      '--kv-link-gbps',
      '1',
      '--levels',
      '1',
      '--requests-per-level',
      '4',
      '--output-tokens',
      '16',
      '--gpu-source',
      'none',
      '--json',
      json,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /concurrency 1: the KV transfer rate is impossible: \d+ bytes reported by the decode pool \(.*of summed transfer time is 10\.00 Gbit\/s\), above the declared link bandwidth of 1\.000 Gbit\/s \(--kv-link-gbps\)/,
    );
    expect(existsSync(json)).toBe(false);
  });
});
