/**
 * The CLI as a user runs it: a real process, real flags, real files, against the
 * simulator over loopback.
 */
import { existsSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGoodput } from '../test-support/goodput-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';

const FAKE_BIN = fileURLToPath(new URL('../test-support/fake-bin', import.meta.url));

const goodput = runGoodput;

let sim: SimServer;
let dir: string;
// A generous client budget: these tests check what the CLI prints and writes; whether a
// level is client-bound on a loaded CI machine is judged by core's and the runner's tests.
const quick = ['--levels', '1,2', '--requests-per-level', '2', '--output-tokens', '16', '--prompt-tokens', '8', '--client-budget-ms', '1000'];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
  dir = mkdtempSync(join(tmpdir(), 'goodput-cli-'));
});
afterAll(async () => {
  await sim.close();
});

describe('bad input: a clear message, exit code 2, nothing written', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['an unknown flag', ['--url', 'http://127.0.0.1:1', '--frobnicate'], /unknown option '--frobnicate'/],
    ['a zero level', ['--url', 'http://127.0.0.1:1', '--levels', '1,0,4'], /--levels: '0' is not a positive integer/],
    ['a level that is not a number', ['--url', 'http://127.0.0.1:1', '--levels', '1,two'], /--levels: 'two' is not a positive integer/],
    ['a fractional level', ['--url', 'http://127.0.0.1:1', '--levels', '1.5'], /--levels: '1.5' is not a positive integer/],
    ['a URL that is not a URL', ['--url', 'not a url'], /--url: 'not a url' is not a URL/],
    ['a negative cost', ['--url', 'http://127.0.0.1:1', '--hourly-cost', '-2'], /--hourly-cost: '-2' must be at least 0/],
    ['a missing --url', [], /required option '--url <url>'/],
    [
      'an unknown engine',
      ['--url', 'http://127.0.0.1:1', '--engine', 'vllm2'],
      /--engine: 'vllm2' is not a known engine; use one of auto, vllm, sglang, tgi, tei, llamacpp, ollama, trtllm, lmdeploy, openai, generic, ollama-native/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what}`, async () => {
      const json = join(dir, `bad-${what.replace(/\W+/g, '-')}.json`);
      const raw = join(dir, `bad-${what.replace(/\W+/g, '-')}.jsonl`);
      const r = await goodput(['sweep', ...args, '--json', json, '--raw', raw]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(json)).toBe(false);
      expect(existsSync(raw)).toBe(false);
    });
  }

  it('refuses a server that does not answer (exit 2) and writes no result', async () => {
    const json = join(dir, 'refused.json');
    const raw = join(dir, 'refused.jsonl');
    const r = await goodput(['sweep', '--url', 'http://127.0.0.1:9', ...quick, '--json', json, '--raw', raw]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be benchmarked/);
    expect(existsSync(json)).toBe(false);
    expect(existsSync(raw)).toBe(false);
  });

  it('goodput sim refuses a bad flag value, naming it', async () => {
    const r = await goodput(['sim', '--decode-step-ms', '-5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/decodeStepMs|decode-step-ms/);
  });
});

describe('goodput sweep', () => {
  it('writes the result JSON and raw records, prints the table and the cards', async () => {
    const json = join(dir, 'ok.json');
    const raw = join(dir, 'ok.jsonl');
    const r = await goodput(['sweep', '--url', sim.url, ...quick, '--hourly-cost', '6.5', '--json', json, '--raw', raw]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Throughput tok\/s/);
    expect(r.stdout).toMatch(/Model {5}single stream/);
    expect(r.stdout).toMatch(/per 1M output tokens/);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels.map((l) => l.concurrency)).toEqual([1, 2]);
    expect(result.run.command).toMatch(/^goodput sweep --url/);
    const lines = readFileSync(raw, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2 * (1 + 2)); // two levels × (1 warm-up + 2 measured)
    expect(lines.filter((l) => l.warmup)).toHaveLength(2);
  });

  it('--json - prints only JSON on stdout, and the short-output warning is in it and on screen', async () => {
    const r = await goodput(['sweep', '--url', sim.url, ...quick, '--json', '-']);
    expect(r.code).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(r.stdout));
    expect(result.warnings.map((w) => w.code)).toContain('short-output');
    expect(r.stderr).toMatch(/warning: output length 16 is below 128/);
  });

  it('never prints or stores the API key', async () => {
    const json = join(dir, 'key.json');
    const raw = join(dir, 'key.jsonl');
    const secret = 'sk-secret-must-not-leak-42';
    const r = await goodput(['sweep', '--url', sim.url, ...quick, '--api-key', secret, '--json', json, '--raw', raw]);
    expect(r.code).toBe(0);
    for (const text of [r.stdout, r.stderr, readFileSync(json, 'utf8'), readFileSync(raw, 'utf8')]) expect(text).not.toContain(secret);
    expect(readFileSync(json, 'utf8')).toContain('--api-key ***');
  });

  it('samples GPU memory through nvidia-smi when it is on PATH', async () => {
    const r = await goodput(['sweep', '--url', sim.url, ...quick, '--json', '-'], {
      PATH: `${FAKE_BIN}:${process.env.PATH}`,
      FAKE_NVIDIA_SMI_URL: sim.url,
    });
    expect(r.code).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(r.stdout));
    const mem = result.levels[0]?.gpuMemMiB;
    expect(mem?.available).toBe(true);
    if (!mem?.available) return;
    expect(mem.source).toBe('nvidia-smi');
    expect(mem.gpu).toBe('SimGPU 80GB');
    expect(mem.peak).toBeGreaterThanOrEqual(16000);
    expect(result.cards.platform.gpu).toBe('SimGPU 80GB');
  });

  it('without nvidia-smi, GPU memory is "not available", never zero', async () => {
    const r = await goodput(['sweep', '--url', sim.url, ...quick, '--json', '-'], { PATH: '/usr/bin:/bin' });
    const result = sweepResultSchema.parse(JSON.parse(r.stdout));
    expect(result.levels[0]?.gpuMemMiB).toEqual({
      available: false,
      source: 'not available',
      reason:
        'no GPU source: nvidia-smi is not on PATH; amd-smi is not on PATH; rocm-smi is not on PATH; the server exposes no GPU memory gauge (TensorRT-LLM has one)',
    });
  });
});

describe('goodput cards', () => {
  it('prints exactly the cards of a result', async () => {
    const json = join(dir, 'cards.json');
    await goodput(['sweep', '--url', sim.url, ...quick, '--hourly-cost', '2', '--baseline-rate', '3', '--json', json]);
    const r = await goodput(['cards', json]);
    expect(r.code).toBe(0);
    const result = JSON.parse(readFileSync(json, 'utf8'));
    expect(JSON.parse(r.stdout)).toEqual(result.cards);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['model', 'engine', 'platform']);
  });
  it('names a file that is not a result', async () => {
    const r = await goodput(['cards', join(dir, 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing.json: cannot read \(ENOENT\)/);
  });
  it('refuses a result file past the input limit before reading it, naming the limit', async () => {
    // Sparse: 600 MiB on paper, nothing on disk.
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 600 * 1024 * 1024);
    const r = await goodput(['cards', huge]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`goodput: ${huge} is 629145600 bytes, above the limit of 536870912 bytes in one result, receipt, score or evidence file we read\n`);
  });
});

describe('goodput demo', () => {
  it('starts the simulator in its own process, sweeps it and stops it', async () => {
    const r = await goodput(['demo', '--levels', '1,2', '--requests-per-level', '2', '--output-tokens', '32'], {}, 90_000);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/simulator started at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toMatch(/Engine {4}peak/);
  });
});
