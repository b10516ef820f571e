/**
 * A run over LoRA adapters in `goodput export` and `goodput report`: the
 * per-request formats (csv, jsonl, parquet-free-json) give each request's
 * adapter as their last column, the markdown summary adds a row per level and
 * adapter that reads as the result's `levels[].adapters`, and the report's
 * contract names the mix. A run without adapters exports as before: an empty
 * last column, no adapter table.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli as inProcess } from '../test-support/cli-in-process.js';

let dir: string;
let sim: SimServer;
const cli = (args: string[]) => inProcess([...args, '--no-save']);
const base = ['--levels', '1,2', '--requests-per-level', '12', '--warmup', '1', '--output-tokens', '8', '--prompt-tokens', '16', '--seed', '7'];

/** A sweep's result and raw records, written under the temp folder. */
async function sweep(name: string, more: string[]): Promise<{ json: string; raw: string; result: SweepResult; adapters: string[] }> {
  const json = join(dir, `${name}.json`);
  const raw = join(dir, `${name}.jsonl`);
  const ran = await cli(['sweep', '--url', sim.url, ...base, ...more, '--json', json, '--raw', raw]);
  expect(ran.code, ran.stderr).toBe(0);
  const lines = readFileSync(raw, 'utf8').trim().split('\n');
  return {
    json,
    raw,
    result: JSON.parse(readFileSync(json, 'utf8')) as SweepResult,
    adapters: lines.map((l) => (JSON.parse(l) as { adapter?: string }).adapter ?? ''),
  };
}

async function exported(s: { json: string; raw: string }, format: string): Promise<string> {
  const ran = await inProcess(['export', s.json, '--format', format, '--raw', s.raw]);
  expect(ran.code, ran.stderr).toBe(0);
  return ran.stdout;
}

/** A level's name in the summary and the adapter table. */
const labelOf = (l: SweepResult['levels'][number]) => l.load?.label ?? `${l.concurrency} streams`;

let lora: Awaited<ReturnType<typeof sweep>>;
let plain: Awaited<ReturnType<typeof sweep>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'goodput-export-lora-'));
  sim = await startSimulator({ prefillBaseMs: 1, decodeStepMs: 0.5, decodeMsPerExtraSeq: 0, loraAdapters: [{ name: 'sql-lora' }, { name: 'chat-lora' }] });
  lora = await sweep('lora', ['--lora', 'sql-lora=3,chat-lora=1']);
  plain = await sweep('plain', []);
});
afterAll(async () => {
  await sim?.close();
});

describe('a run over LoRA adapters, exported', () => {
  it("gives each request's adapter as the last column of csv, jsonl and parquet-free-json, in record order", async () => {
    expect(new Set(lora.adapters)).toEqual(new Set(['sql-lora', 'chat-lora']));
    const csv = (await exported(lora, 'csv')).trim().split('\n');
    expect(csv[0]?.endsWith(',slo_met,slo_missed,adapter')).toBe(true);
    expect(csv.slice(1).map((row) => row.split(',').at(-1))).toEqual(lora.adapters);
    const jsonl = (await exported(lora, 'jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { adapter: string | null });
    expect(jsonl.map((r) => r.adapter)).toEqual(lora.adapters);
    const columnar = JSON.parse(await exported(lora, 'parquet-free-json')) as {
      columns: Array<{ name: string; type: string }>;
      data: Record<string, unknown[]>;
    };
    expect(columnar.columns.at(-1)).toMatchObject({ name: 'adapter', type: 'string' });
    expect(columnar.data['adapter']).toEqual(lora.adapters);
  });

  it('adds to the markdown summary a row per level and adapter, as the result states them', async () => {
    const md = await exported(lora, 'markdown');
    expect(md).toContain("**LoRA adapters.** Each request named one LoRA adapter as its model, drawn by weight from the run's seed");
    expect(md).toContain('| cell | Level | Adapter | Requests | Failed | Throughput tok/s | TTFT p50 ms | TTFT p99 ms | TPOT p50 ms | TPOT p95 ms |');
    const [first, second] = lora.result.levels.map(labelOf);
    for (const l of lora.result.levels) {
      expect(l.adapters?.length).toBe(2);
      for (const a of l.adapters ?? []) expect(md).toContain(`| 0 | ${labelOf(l)} | ${a.name} | ${a.requests} | ${a.failed} | `);
    }
    // One level narrowed: its adapters only.
    const one = await inProcess(['export', lora.json, '--format', 'markdown', '--level', '2']);
    expect(one.stdout).toContain(`| 0 | ${second} | sql-lora |`);
    expect(one.stdout).not.toContain(`| 0 | ${first} | sql-lora |`);
  });

  it("names the mix in the report's contract", async () => {
    const md = await inProcess(['report', lora.json, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('| LoRA adapters | sql-lora=3, chat-lora=1 |');
    expect(md.stdout).toContain('### LoRA adapters');
  });
});

describe('a run without adapters, exported', () => {
  it('has an empty last column and no adapter table or contract row', async () => {
    const csv = (await exported(plain, 'csv')).trim().split('\n');
    expect(csv.slice(1).every((row) => row.endsWith(','))).toBe(true);
    const md = await exported(plain, 'markdown');
    expect(md).not.toContain('LoRA adapters');
    const report = await inProcess(['report', plain.json, '--format', 'md']);
    expect(report.stdout).not.toContain('LoRA adapters');
  });
});
