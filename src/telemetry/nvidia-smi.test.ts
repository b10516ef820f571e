/**
 * nvidia-smi: the CSV parser, one-shot reads and the -lms stream, against the
 * fake nvidia-smi in test-support/fake-bin (on PATH for this file only).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseNvidiaSmiCsv, readNvidiaSmi, smiNumber } from './nvidia-smi.js';
import { nvidiaSmiSource } from './nvidia-smi-stream.js';

const FAKE_BIN = fileURLToPath(new URL('../test-support/fake-bin', import.meta.url));
const saved = { ...process.env };
beforeAll(() => {
  process.env.PATH = `${FAKE_BIN}:${saved.PATH}`;
});
afterEach(() => {
  for (const k of ['FAKE_NVIDIA_SMI_CSV', 'FAKE_NVIDIA_SMI_FAIL', 'FAKE_NVIDIA_SMI_IGNORE_TERM', 'FAKE_NVIDIA_SMI_PARTIAL_AFTER', 'FAKE_NVIDIA_SMI_PID_FILE'])
    delete process.env[k];
  process.env.PATH = `${FAKE_BIN}:${saved.PATH}`;
});
afterAll(() => {
  process.env.PATH = saved.PATH;
});

describe('nvidia-smi CSV', () => {
  it('sums memory and power over GPUs, averages utilisation, and names them', () => {
    const csv = '0, NVIDIA H100 80GB HBM3, 70123, 81559, 97, 612.40\n1, NVIDIA H100 80GB HBM3, 70001, 81559, 95, 598.10\n';
    expect(parseNvidiaSmiCsv(csv)).toEqual({
      name: '2× NVIDIA H100 80GB HBM3',
      usedMiB: 140124,
      totalMiB: 163118,
      utilizationPct: 96,
      powerW: 1210.5,
      energyJ: null,
    });
  });
  it('turns [N/A] and [Not Supported] into null, never zero (utilisation under MIG, power on some boards)', () => {
    expect(parseNvidiaSmiCsv('0, NVIDIA A100, 40000, 81920, [N/A], [Not Supported]\n')).toEqual({
      name: 'NVIDIA A100',
      usedMiB: 40000,
      totalMiB: 81920,
      utilizationPct: null,
      powerW: null,
      energyJ: null,
    });
    expect(parseNvidiaSmiCsv('0, NVIDIA A100, [N/A], [N/A]\n')).toMatchObject({ usedMiB: null, totalMiB: null });
    expect(smiNumber('[Unknown Error]')).toBeNull();
    expect(smiNumber(' 35.5 W')).toBe(35.5);
  });
  it('a sum over GPUs is null when one GPU lacks the field (a partial sum would understate)', () => {
    expect(parseNvidiaSmiCsv('0, A, 100, 200, 50, 100\n1, A, [N/A], 200, 60, 110\n')).toMatchObject({
      usedMiB: null,
      totalMiB: 400,
      utilizationPct: 55,
      powerW: 210,
    });
  });
  it('reads the older four-field answer, and nothing from junk', () => {
    expect(parseNvidiaSmiCsv('0, G, 100, 200\n')).toMatchObject({ usedMiB: 100, totalMiB: 200, utilizationPct: null, powerW: null });
    expect(parseNvidiaSmiCsv('')).toBeNull();
    expect(parseNvidiaSmiCsv('No devices were found\n')).toBeNull();
  });
});

describe('nvidia-smi as a process', () => {
  it('reads once through the executable', async () => {
    process.env.FAKE_NVIDIA_SMI_CSV = '0, Fake GPU, 1234, 8000, 12, 70.5';
    expect(await readNvidiaSmi()).toMatchObject({ name: 'Fake GPU', usedMiB: 1234, utilizationPct: 12, powerW: 70.5 });
  });
  it('streams a reading every -lms interval, grouping the lines of each GPU', async () => {
    process.env.FAKE_NVIDIA_SMI_CSV = '0, G, 100, 1000, 10, 50\\n1, G, 300, 1000, 30, 70';
    const source = nvidiaSmiSource(20);
    source.start();
    // Generous: a loaded machine can take a while to start the fake's node process.
    await new Promise((r) => setTimeout(r, 1000));
    const c = await source.stop();
    await source.close();
    expect(c.source).toBe('nvidia-smi');
    expect(c.reason).toBeNull();
    // The -lms interval goes with the readings: the level's energy judges its gaps against it.
    expect(c.intervalMs).toBe(20);
    expect(c.samples.length).toBeGreaterThanOrEqual(3);
    expect(c.samples.length).toBeLessThanOrEqual(51);
    for (const s of c.samples) expect(s).toMatchObject({ name: '2× G', usedMiB: 400, utilizationPct: 20, powerW: 120 });
    expect(c.samples[1]?.atMs).toBeGreaterThan(c.samples[0]?.atMs ?? Infinity);
  });
  it('says why when nvidia-smi is missing or fails, never a zero', async () => {
    process.env.PATH = '/nonexistent';
    expect(await readNvidiaSmi()).toEqual({ error: 'nvidia-smi is not on PATH' });
    const missing = nvidiaSmiSource(20);
    missing.start();
    expect(await missing.stop()).toMatchObject({ samples: [], reason: 'nvidia-smi is not on PATH' });
    await missing.close();
    process.env.PATH = `${FAKE_BIN}:${saved.PATH}`;
    process.env.FAKE_NVIDIA_SMI_FAIL = '1';
    expect(await readNvidiaSmi()).toEqual({ error: 'nvidia-smi failed: Failed to initialize NVML: Driver/library version mismatch' });
    const failing = nvidiaSmiSource(20);
    failing.start();
    await new Promise((r) => setTimeout(r, 1500));
    expect((await failing.stop()).reason).toBe('nvidia-smi exited with code 9: Failed to initialize NVML: Driver/library version mismatch');
    await failing.close();
  });
  it('drops a partial multi-GPU reading at stop rather than recording it as a whole one', async () => {
    process.env.FAKE_NVIDIA_SMI_CSV = '0, G, 100, 1000, 10, 50\\n1, G, 300, 1000, 30, 70';
    process.env.FAKE_NVIDIA_SMI_PARTIAL_AFTER = '3';
    const source = nvidiaSmiSource(20);
    source.start();
    await new Promise((r) => setTimeout(r, 1500));
    const c = await source.stop();
    await source.close();
    expect(c.samples.length).toBeGreaterThanOrEqual(2);
    expect(c.samples.length).toBeLessThanOrEqual(3);
    for (const s of c.samples) expect(s).toMatchObject({ name: '2× G', usedMiB: 400 });
  });
  it('close() does not wait for ever on an nvidia-smi that ignores SIGTERM: it kills it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'goodput-smi-'));
    const pidFile = join(dir, 'pid');
    process.env.FAKE_NVIDIA_SMI_CSV = '0, G, 1, 2, 3, 4';
    process.env.FAKE_NVIDIA_SMI_IGNORE_TERM = '1';
    process.env.FAKE_NVIDIA_SMI_PID_FILE = pidFile;
    const source = nvidiaSmiSource(20, { termGraceMs: 300, killGraceMs: 2000 });
    source.start();
    await new Promise((r) => setTimeout(r, 1000));
    await source.stop();
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const t0 = performance.now();
    const closed = await Promise.race([source.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('hung'), 5000))]);
    expect(closed).toBe('closed');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
    expect(() => process.kill(pid, 0)).toThrow();
    rmSync(dir, { recursive: true, force: true });
  });
  it('keeps one process across levels; a level shorter than the first reading gets one taken at its end', async () => {
    process.env.FAKE_NVIDIA_SMI_CSV = '0, G, 1, 2, 3, 4';
    const source = nvidiaSmiSource(20);
    source.start();
    const short = await source.stop();
    expect(short.samples).toHaveLength(1);
    expect(short.notes[0]).toMatch(/ended before nvidia-smi's first streamed reading/);
    source.start();
    await new Promise((r) => setTimeout(r, 1000));
    const long = await source.stop();
    expect(long.samples.length).toBeGreaterThanOrEqual(2);
    expect(long.notes).toEqual([]);
    // A stop without a start reports nothing rather than the previous level's readings.
    expect(await source.stop()).toMatchObject({ samples: [], reason: 'the level ended before its measured requests started' });
    await source.close();
  });
});
