/** The "GPU, by level" lines: energy per token over the measured window, or "energy not valid" and why. */
import { describe, expect, it } from 'vitest';
import type { EnergyLevel, GpuLevel, LevelResult } from '../core/index.js';
import { level } from '../test-support/receipt-fixture.js';
import { renderTelemetry } from './render-telemetry.js';

const spec = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const gpu: GpuLevel = {
  available: true,
  source: 'nvidia-smi',
  samples: 20,
  utilizationPct: { mean: 50, max: 60 },
  powerW: { mean: 300, max: 310 },
  energyJ: 600,
  energyMethod: 'power',
  joulesPerOutputToken: 6,
  notes: [],
};
const energy: EnergyLevel = {
  source: 'nvidia-smi',
  valid: true,
  reason: null,
  windowMs: 2000,
  samples: 11,
  outside: 7,
  intervalMs: 200,
  coverage: 1,
  method: 'power',
  joules: 600,
  meanPowerW: 300,
  outputTokens: 100,
  inputTokens: 400,
  joulesPerOutputToken: 6,
  joulesPerInputToken: 1.5,
  joulesPerTotalToken: 1.2,
};
const at = (c: number, extra: Partial<LevelResult>): LevelResult => ({ ...level({ c, ...spec }), ...extra });

describe('renderTelemetry', () => {
  it('shows joules per output, input and total token with the window, readings, interval and coverage', () => {
    expect(renderTelemetry([at(1, { gpu, energy })])).toEqual([
      '',
      'GPU, by level:',
      '  1: utilisation 50% · power 300 W · 6.000 J/output token, 1.5000 J/input token, 1.2000 J/token (from power over the 2.00 s measured window, 11 readings every 0.20 s, coverage 100%) (nvidia-smi)',
    ]);
  });
  it('says "energy not valid" and why, with no per-token figure', () => {
    const reason = 'no reading from 400 ms to 1.60 s into the window (1.20 s, more than 3 × the 200 ms interval)';
    const bad = { ...energy, valid: false, reason, joules: null, joulesPerOutputToken: null, joulesPerInputToken: null, joulesPerTotalToken: null };
    const lines = renderTelemetry([at(2, { gpu: { ...gpu, energyJ: null, joulesPerOutputToken: null }, energy: bad })]);
    expect(lines[2]).toBe(`  2: utilisation 50% · power 300 W · energy not valid: ${reason} (nvidia-smi)`);
    expect(lines.join('\n')).not.toMatch(/J\/output token/);
  });
  it('keeps the earlier line for a result written before levels carried their energy', () => {
    expect(renderTelemetry([at(1, { gpu })])[2]).toBe('  1: utilisation 50% · power 300 W · 6.000 J/output token (from power) (nvidia-smi)');
  });
});
