/**
 * `goodput export --format vllm`: the keys and units of vLLM's --save-result JSON,
 * computed from a real sweep's records (and, without them, from the result), the
 * arrival kinds' traffic keys, and the command's flags and errors as a user meets them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RawRecord, SweepResult } from '../core/index.js';
import { type SweepFixture, sweepFixture } from '../test-support/sweep-fixture.js';
import { vllmHeader } from './export-vllm-header.js';
import { vllmFormat } from './export-vllm.js';

/** vLLM's keys, in the order its --save-result writes them (metric percentiles at the default 99). */
const HEAD = ['date', 'endpoint_type', 'backend', 'label', 'model_id', 'tokenizer_id', 'num_prompts', 'request_rate', 'burstiness', 'max_concurrency'];
const COUNTS = [
  'duration',
  'completed',
  'failed',
  'total_input_tokens',
  'total_output_tokens',
  'request_throughput',
  'request_goodput',
  'output_throughput',
  'total_token_throughput',
];
const ARRAYS = ['input_lens', 'output_lens', 'ttfts', 'itls', 'latencies', 'start_times', 'errors'];
const STATS = ['ttft', 'tpot', 'itl', 'e2el'].flatMap((m) => [`mean_${m}_ms`, `median_${m}_ms`, `std_${m}_ms`, `p99_${m}_ms`]);

let fx: SweepFixture;
let records: RawRecord[];
let dir: string;
beforeAll(async () => {
  fx = await sweepFixture();
  records = fx.levels.flatMap((l) => l.records.map((r) => ({ ...r, cell: 0 })));
  dir = mkdtempSync(join(tmpdir(), 'goodput-vllm-'));
  writeFileSync(join(dir, 'result.json'), JSON.stringify(fx.result));
  writeFileSync(join(dir, 'raw.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
const input = (over: Partial<{ result: SweepResult; records: RawRecord[] | null }> = {}) => ({ result: fx.result, resultPath: 'r.json', records, ...over });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('vLLM result JSON from a sweep with its raw records', () => {
  it('one document per level, one per line, with every key vLLM writes', () => {
    const docs = vllmFormat
      .render(input())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(docs.map((d) => d.max_concurrency)).toEqual([1, 2]);
    const keys = Object.keys(docs[0] as object);
    expect(keys.slice(0, HEAD.length)).toEqual(HEAD);
    for (const k of [...COUNTS, ...ARRAYS, 'max_output_tokens_per_s', 'max_concurrent_requests', 'rtfx', ...STATS]) expect(keys).toContain(k);
    expect(keys).not.toContain('generated_texts');
  });

  it('same units as vLLM: seconds per request, ms in the statistics; a closed loop is rate inf at max concurrency C', () => {
    const doc = JSON.parse(vllmFormat.render(input({ result: { ...fx.result, levels: [fx.result.levels[1] as SweepResult['levels'][0]] } }))) as Record<
      string,
      number[] & number & string
    >;
    const level = fx.levels[1];
    const measured = (level?.records ?? []).filter((r) => !r.warmup).sort((a, b) => a.seq - b.seq);
    const ttftsS = measured.map((r) => ((r.firstTokenNs as number) - r.sendNs) / 1e9);
    expect(doc).toMatchObject({
      backend: 'openai-chat',
      endpoint_type: 'openai-chat',
      request_rate: 'inf',
      burstiness: 1,
      max_concurrency: 2,
      num_prompts: 3,
      completed: 3,
      failed: 0,
      label: null,
      rtfx: 0,
    });
    expect(doc.date).toMatch(/^\d{8}-\d{6}$/);
    expect(doc.ttfts).toEqual(ttftsS);
    expect(doc.mean_ttft_ms).toBeCloseTo(mean(ttftsS) * 1000, 9);
    expect(doc.output_lens).toEqual([16, 16, 16]);
    expect(doc.total_output_tokens).toBe(48);
    expect(doc.duration).toBeCloseTo((level?.level.durationMs ?? NaN) / 1000, 12);
    expect(doc.itls).toHaveLength(3);
    expect((doc.itls as unknown as number[][])[0]).toHaveLength(15);
    expect(doc.errors).toEqual(['', '', '']);
    expect(doc.max_concurrent_requests).toBe(2);
    expect(doc.goodput_omitted).toEqual(['generated_texts: goodput records timings and token counts, not the generated text']);
  });

  it("without --raw: only what the result holds under vLLM's definitions, and it says what is left out", () => {
    const doc = JSON.parse(
      vllmFormat.render(input({ result: { ...fx.result, levels: [fx.result.levels[0] as SweepResult['levels'][0]] }, records: null })),
    ) as Record<string, unknown>;
    for (const k of ARRAYS) expect(doc).not.toHaveProperty(k);
    expect(doc).not.toHaveProperty('mean_ttft_ms');
    expect(doc).not.toHaveProperty('p99_e2el_ms');
    expect(doc.median_ttft_ms).toBe(fx.result.levels[0]?.ttftMs?.p50);
    expect(doc.p99_itl_ms).toBe(fx.result.levels[0]?.iclMs?.p99);
    expect(doc.median_tpot_ms).toBe(fx.result.levels[0]?.tpotMs?.p50);
    expect((doc.goodput_omitted as string[]).join(' ')).toMatch(/without --raw: the per-request arrays .* are left out/);
  });

  it("per-level files under vLLM's own names", () => {
    const files = vllmFormat.files?.(input()) ?? [];
    expect(files.map((f) => f.name)).toEqual([
      expect.stringMatching(/^openai-chat-infqps-concurrency1-goodput-sim-1-\d{8}-\d{6}\.json$/),
      expect.stringMatching(/^openai-chat-infqps-concurrency2-goodput-sim-1-\d{8}-\d{6}\.json$/),
    ]);
  });
});

describe('traffic keys by arrival kind', () => {
  const level = () => fx.result.levels[0] as SweepResult['levels'][0];
  const withArrival = (arrival: NonNullable<SweepResult['run']['arrival']>) => ({ ...fx.result, run: { ...fx.result.run, arrival } });
  it("a Poisson rate is vLLM's burstiness 1; a constant rate its infinite burstiness; bursts have no equivalent", () => {
    const notes: string[] = [];
    expect(vllmHeader(withArrival({ kind: 'rate', process: 'poisson', seed: 1, maxConcurrency: null }), level(), 2.5, notes)).toMatchObject({
      keys: { request_rate: 2.5, burstiness: 1, max_concurrency: null },
      fileName: expect.stringMatching(/^openai-chat-2\.5qps-goodput-sim-1-/),
    });
    expect(vllmHeader(withArrival({ kind: 'rate', process: 'constant', seed: 1, maxConcurrency: 8 }), level(), 4, notes).keys).toMatchObject({
      request_rate: 4,
      burstiness: 'inf',
      max_concurrency: 8,
    });
    expect(vllmHeader(withArrival({ kind: 'burst', intervalMs: 500, maxConcurrency: null }), level(), 4, notes).keys).toMatchObject({
      request_rate: 8,
      burstiness: null,
    });
    expect(notes).toEqual(['burstiness: bursts of 4 every 500 ms have no vLLM equivalent; request_rate is their mean rate']);
  });
});

describe('goodput export --format vllm (a real process)', () => {
  const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'export', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b: Buffer) => {
        stdout += b.toString();
      });
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('timed out'));
      }, 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  const r = () => join(dir, 'result.json');
  const raw = () => join(dir, 'raw.jsonl');

  it('--level picks one level; --out-dir writes one file per level', async () => {
    const one = await run([r(), '--format', 'vllm', '--raw', raw(), '--level', '2']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ max_concurrency: 2, completed: 3 });
    const out = join(dir, 'vllm-out');
    const many = await run([r(), '--format', 'vllm', '--out-dir', out]);
    expect(many.code).toBe(0);
    expect(many.stderr).toMatch(/note: without --raw, --format vllm leaves out the per-request figures/);
    expect(readdirSync(out)).toHaveLength(2);
    expect(many.stderr).toMatch(/wrote .*openai-chat-infqps-concurrency1-goodput-sim-1-/);
  });

  const bad: Array<[string, () => string[], RegExp]> = [
    ['a level the result does not have', () => [r(), '--format', 'vllm', '--level', '3'], /--level: 3 is not a level of .*result\.json \(its levels: 1, 2\)/],
    ['a level that is not a number', () => [r(), '--format', 'vllm', '--level', 'two'], /--level: 'two' is not a number/],
    [
      '--out with --out-dir',
      () => [r(), '--format', 'vllm', '--out', 'a.json', '--out-dir', 'd'],
      /--out-dir: give --out \(one file or -\) or --out-dir \(a file per level\), not both/,
    ],
    [
      '--out-dir for a single-file format',
      () => [r(), '--format', 'markdown', '--out-dir', 'd'],
      /--out-dir: --format markdown writes a single file; use --out/,
    ],
    ['an unreadable records file', () => [r(), '--format', 'vllm', '--raw', join(dir, 'missing.jsonl')], /missing\.jsonl: cannot read \(ENOENT\)/],
    ['an unknown format', () => [r(), '--format', 'vllm2'], /--format: 'vllm2' is not one of .*vllm/],
  ];
  for (const [what, args, message] of bad) {
    it(`refuses ${what} (exit 2, nothing written)`, async () => {
      const got = await run(args());
      expect(got.code).toBe(2);
      expect(got.stderr).toMatch(message);
      expect(existsSync(join(dir, 'd'))).toBe(false);
    });
  }

  it('refuses records that belong to another run', async () => {
    writeFileSync(join(dir, 'short.jsonl'), readFileSync(raw(), 'utf8').split('\n').slice(0, 3).join('\n') + '\n');
    const got = await run([r(), '--format', 'vllm', '--raw', join(dir, 'short.jsonl')]);
    expect(got.code).toBe(2);
    expect(got.stderr).toMatch(/short\.jsonl does not belong to .*result\.json/);
  });
});
