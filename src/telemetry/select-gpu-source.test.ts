/**
 * Choosing the GPU source: `auto` order, explicit choices, the engine's own
 * gauge, and the warning when a local tool would read another machine's GPUs.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discoverMetrics, parsePrometheusText } from '../core/index.js';
import { type TextServer, startTextServer } from '../test-support/text-server.js';
import { selectGpuSource } from './select-gpu-source.js';

const FAKE_BIN = fileURLToPath(new URL('../test-support/fake-bin', import.meta.url));
const saved = process.env.PATH;
const LOCAL = 'http://127.0.0.1:8000';
let server: TextServer | null = null;
beforeAll(() => {
  process.env.PATH = `${FAKE_BIN}:${saved}`;
});
afterEach(async () => {
  for (const k of ['FAKE_NVIDIA_SMI_CSV', 'FAKE_NVIDIA_SMI_FAIL', 'FAKE_AMD_SMI_JSON', 'FAKE_ROCM_SMI_JSON']) delete process.env[k];
  process.env.PATH = `${FAKE_BIN}:${saved}`;
  await server?.close();
  server = null;
});
afterAll(() => {
  process.env.PATH = saved;
});

const request = (over: Partial<Parameters<typeof selectGpuSource>[0]> = {}) => ({
  choice: 'auto' as const,
  dcgmUrl: null,
  metrics: null,
  serverUrl: LOCAL,
  ...over,
});

describe('--gpu-source auto', () => {
  it('takes nvidia-smi when it answers, and warns when the server is on another host', async () => {
    process.env.FAKE_NVIDIA_SMI_CSV = '0, G, 1, 2, 3, 4';
    const here = await selectGpuSource(request());
    expect(here.source?.kind).toBe('nvidia-smi');
    expect(here.warnings).toEqual([]);
    const remote = await selectGpuSource(request({ serverUrl: 'http://10.0.0.5:8000/v1' }));
    expect(remote.warnings[0]).toMatch(/GPU readings come from nvidia-smi on this machine, but the server is at 10\.0\.0\.5:8000/);
  });
  it('falls through to amd-smi, then rocm-smi, when nvidia-smi fails', async () => {
    process.env.FAKE_NVIDIA_SMI_FAIL = '1';
    process.env.FAKE_AMD_SMI_JSON = '[{"gpu":0,"power":{"socket_power":{"value":100,"unit":"W"}}}]';
    expect((await selectGpuSource(request())).source?.kind).toBe('amd-smi');
    delete process.env.FAKE_AMD_SMI_JSON;
    process.env.FAKE_ROCM_SMI_JSON = '{"card0":{"GPU use (%)":"5"}}';
    expect((await selectGpuSource(request())).source?.kind).toBe('rocm-smi');
  });
  it("uses the engine's own memory gauge when no tool answers", async () => {
    process.env.PATH = '/nonexistent';
    server = await startTextServer((p) =>
      p === '/prometheus/metrics' ? { body: 'trtllm_gpu_memory_usage_bytes{gpu="0"} 2147483648\ntrtllm_num_requests_running 0\n' } : null,
    );
    const url = `${server.url}/prometheus/metrics`;
    const map = discoverMetrics(parsePrometheusText('trtllm_gpu_memory_usage_bytes 1\ntrtllm_num_requests_running 0'));
    const picked = await selectGpuSource(request({ metrics: { url, map } }));
    expect(picked.source?.label).toBe('engine (trtllm_gpu_memory_usage_bytes)');
    picked.source?.start();
    const c = await picked.source?.stop();
    expect(c?.samples[0]).toMatchObject({ usedMiB: 2048, totalMiB: null, powerW: null });
  });
  it('says every reason when there is no source at all', async () => {
    process.env.PATH = '/nonexistent';
    expect(await selectGpuSource(request())).toEqual({
      source: null,
      warnings: [],
      reason:
        'no GPU source: nvidia-smi is not on PATH; amd-smi is not on PATH; rocm-smi is not on PATH; the server exposes no GPU memory gauge (TensorRT-LLM has one)',
    });
  });
  it('takes the DCGM exporter when --dcgm-url is given (and never guesses :9400 otherwise)', async () => {
    process.env.PATH = '/nonexistent';
    expect((await selectGpuSource(request({ dcgmUrl: 'http://127.0.0.1:9400/metrics' }))).source?.kind).toBe('dcgm');
    expect((await selectGpuSource(request())).source).toBeNull();
  });
});

describe('explicit choices', () => {
  it('none, and dcgm without a URL, are stated', async () => {
    expect(await selectGpuSource(request({ choice: 'none' }))).toMatchObject({ source: null, reason: 'GPU telemetry is off (--gpu-source none)' });
    expect(await selectGpuSource(request({ choice: 'dcgm' }))).toMatchObject({ source: null, reason: '--gpu-source dcgm needs --dcgm-url' });
    expect(await selectGpuSource(request({ choice: 'engine' }))).toMatchObject({ source: null, reason: /no GPU memory gauge/ });
  });
  it('a named tool is used as asked, without probing (its readings say what is wrong)', async () => {
    process.env.PATH = '/nonexistent';
    const amd = await selectGpuSource(request({ choice: 'amd-smi' }));
    expect(amd.source?.kind).toBe('amd-smi');
    amd.source?.start();
    expect(await amd.source?.stop()).toMatchObject({ samples: [], reason: 'amd-smi is not on PATH' });
    expect((await selectGpuSource(request({ choice: 'rocm-smi' }))).source?.kind).toBe('rocm-smi');
    expect((await selectGpuSource(request({ choice: 'nvidia-smi' }))).source?.kind).toBe('nvidia-smi');
  });
});
