/**
 * The sweep's telemetry flags: every bad value or combination is refused with a
 * message naming the flag, and (as a process) with exit code 2 and nothing written.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
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
    ['a metrics URL that is not a URL', { metricsUrl: 'not a url' }, "--metrics-url: 'not a url' is not a URL (e.g. http://127.0.0.1:8000)"],
    ['a metrics URL with metrics off', { metricsUrl: 'http://h/metrics', serverMetrics: false }, '--metrics-url: cannot be combined with --no-server-metrics'],
    ['a gauge interval below 100 ms', { metricsIntervalMs: '50' }, "--metrics-interval-ms: '50' must be at least 100"],
  ];
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
});
