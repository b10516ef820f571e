/** `goodput sweep --endpoint embeddings|rerank` in-process: the table, failure reasons on screen, JSON, raw records, and every refusal by flag. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolingResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { startEmbeddingsServer, vectorsBody } from '../test-support/embeddings-server.js';

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-pooling-'));
beforeAll(async () => {
  sim = await startSimulator({ pooling: { dimension: 32, msPerInputToken: 0.0005 } });
});
afterAll(async () => {
  await sim.close();
});

describe('goodput sweep --endpoint embeddings', () => {
  it('prints the table with inputs/s, input tok/s, dimension and cost, and writes the JSON and raw records', async () => {
    const json = join(dir, 'embed.json');
    const raw = join(dir, 'embed.jsonl');
    // The simulator shares this process's loop: a generous client budget keeps a loaded machine's delay from binding the levels (the peak is asserted).
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--endpoint',
      'embeddings',
      '--levels',
      '1,2',
      '--batch-size',
      '4',
      '--prompt-tokens',
      '16',
      '--hourly-cost',
      '2',
      '--json',
      json,
      '--raw',
      raw,
      '--client-budget-ms',
      '1000',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('embeddings /v1/embeddings: 4 inputs of 16 tokens per request');
    expect(r.stdout).toMatch(
      /Concurrency +Requests\/s +Inputs\/s +Input tok\/s +Latency p50 \(ms\) +p95 \(ms\) +p99 \(ms\) +Dimension +\$\/1M input tok +Failed/,
    );
    expect(r.stdout).toContain('Engine: peak');
    const result = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels.map((l) => [l.concurrency, l.dimension, l.failed])).toEqual([
      [1, 32, 0],
      [2, 32, 0],
    ]);
    expect(result.levels[0]?.costPerMInputTokensUsd).toBeGreaterThan(0);
    const lines = readFileSync(raw, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { items: number; warmup: boolean });
    // Each level: 1 warm-up and 8 measured requests.
    expect(lines).toHaveLength(18);
    expect(lines.every((l) => l.items === 4)).toBe(true);
  });

  it("shows each broken answer's reason on screen and exits 5 when no level is clean", async () => {
    const srv = await startEmbeddingsServer((inputs, n) => ({ status: 200, body: n < 2 ? vectorsBody(inputs, 8) : vectorsBody(inputs - 1, 8) }));
    try {
      const r = await cli([
        'sweep',
        '--url',
        srv.url,
        '--endpoint',
        'embeddings',
        '--levels',
        '1',
        '--batch-size',
        '16',
        '--prompt-tokens',
        '8',
        '--requests-per-level',
        '3',
      ]);
      expect(r.code).toBe(5);
      expect(r.stdout).toContain('concurrency 1: 3 failed: 15 vectors came back for 16 inputs');
      expect(r.stdout).toContain('no peak');
    } finally {
      await srv.close();
    }
  });

  it("sanitises a server's error text before the terminal sees it", async () => {
    const srv = await startEmbeddingsServer((inputs, n) =>
      n < 2
        ? { status: 200, body: vectorsBody(inputs, 8) }
        : { status: 500, body: JSON.stringify({ error: { message: 'boom \u001b[2J\u001b]0;pwned\u0007 done' } }) },
    );
    try {
      const r = await cli([
        'sweep',
        '--url',
        srv.url,
        '--endpoint',
        'embeddings',
        '--levels',
        '1',
        '--batch-size',
        '2',
        '--prompt-tokens',
        '8',
        '--requests-per-level',
        '2',
      ]);
      expect(r.code).toBe(5);
      expect(r.stdout).toContain('2 failed: HTTP 500: boom');
      expect(r.stdout + r.stderr).not.toContain('\u001b');
      expect(r.stdout + r.stderr).not.toContain('\u0007');
    } finally {
      await srv.close();
    }
  });

  it('rerank: documents/s, query and documents in the heading', async () => {
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--endpoint',
      'rerank',
      '--levels',
      '2',
      '--documents',
      '32',
      '--prompt-tokens',
      '8',
      '--query-tokens',
      '4',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('rerank /v1/rerank: a query of 4 tokens with 32 documents of 8 tokens');
    expect(r.stdout).toContain('Documents/s');
  });

  it("vLLM's /score by --route, sent over 2 client threads", async () => {
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--endpoint',
      'rerank',
      '--engine',
      'vllm',
      '--route',
      '/score',
      '--levels',
      '4',
      '--documents',
      '8',
      '--prompt-tokens',
      '8',
      '--query-tokens',
      '4',
      '--client-threads',
      '2',
      '--client-budget-ms',
      '1000',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('vLLM serves /score for model goodput-sim-1');
    expect(r.stderr).toContain('level 1/1: concurrency 4, 16 requests over 2 client threads');
    expect(r.stdout).toContain('rerank /score: a query of 4 tokens with 8 documents of 8 tokens');
  });
});

describe('goodput sweep --endpoint embeddings --latency-slo', () => {
  it('judges each level and states capacity at the objective (one that no request can meet, one that every request meets)', async () => {
    // Each request is at least 64 tokens × 0.5 ms on the simulator's encoder: no p50 of 1 ms is possible.
    const slow = await startSimulator({ pooling: { dimension: 8, msPerInputToken: 0.5 } });
    try {
      const json = join(dir, 'slo.json');
      const miss = await cli([
        'sweep',
        '--url',
        slow.url,
        '--endpoint',
        'embeddings',
        '--levels',
        '1,2',
        '--batch-size',
        '4',
        '--prompt-tokens',
        '16',
        '--requests-per-level',
        '2',
        '--latency-slo',
        'p50:1',
        '--json',
        json,
      ]);
      expect(miss.code).toBe(0);
      expect(miss.stdout).toContain('SLO p50 ≤ 1 ms');
      expect(miss.stdout).toMatch(/no level meets latency p50 ≤ 1 ms: concurrency 1 missed it \(latency p50 \d+\.\d ms\)/);
      const result = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(result.capacity).toMatchObject({ concurrency: null });
      expect(result.levels.every((l) => l.slo?.holds === false && l.slo.metShare === 0)).toBe(true);
      const hold = await cli([
        'sweep',
        '--url',
        slow.url,
        '--endpoint',
        'embeddings',
        '--levels',
        '1,2',
        '--batch-size',
        '4',
        '--prompt-tokens',
        '16',
        '--requests-per-level',
        '2',
        '--latency-slo',
        'p99:600000',
      ]);
      expect(hold.stdout).toContain('Capacity: capacity at latency p99 ≤ 600000 ms: at least concurrency 2, the highest level measured (every level held)');
    } finally {
      await slow.close();
    }
  });

  it('refuses a malformed objective and one given to a text endpoint, naming the flag', async () => {
    for (const bad of ['95:200', 'p0:10', 'p95:-1', 'p101:5']) {
      const r = await cli(['sweep', '--url', sim.url, '--endpoint', 'embeddings', '--latency-slo', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`--latency-slo: '${bad}' is not pP:MS`);
    }
    const text = await cli(['sweep', '--url', sim.url, '--latency-slo', 'p95:200']);
    expect(text.stderr).toContain('--latency-slo: needs --endpoint embeddings or rerank (not chat)');
  });
});

describe('goodput receipt create with an embeddings run', () => {
  it('refuses pairing it with a chat run, naming both endpoints, and a pair of sweeps without a contract; writes nothing', async () => {
    const embed = join(dir, 'pair-embed.json');
    const chat = join(dir, 'pair-chat.json');
    expect(
      (await cli(['sweep', '--url', sim.url, '--endpoint', 'embeddings', '--levels', '1', '--batch-size', '2', '--prompt-tokens', '8', '--json', embed])).code,
    ).toBe(0);
    expect((await cli(['sweep', '--url', sim.url, '--levels', '1', '--output-tokens', '16', '--requests-per-level', '2', '--json', chat])).code).toBe(0);
    const out = join(dir, 'receipt.json');
    const mixed = await cli(['receipt', 'create', '--baseline', embed, '--optimized', chat, '--method', 'batching', '--out', out]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('a receipt compares two runs of one endpoint: --baseline is an embeddings run, --optimized a chat run');
    const swapped = await cli(['receipt', 'create', '--baseline', chat, '--optimized', embed, '--method', 'batching', '--out', out]);
    expect(swapped.stderr).toContain('--baseline is a chat run, --optimized an embeddings run');
    const both = await cli(['receipt', 'create', '--baseline', embed, '--optimized', embed, '--method', 'batching', '--out', out]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('baseline: the run carries no contract, so its workload cannot be reconstructed');
    expect(existsSync(out)).toBe(false);
    const cards = await cli(['cards', embed]);
    expect(cards.code).toBe(2);
    expect(cards.stderr).toContain('an embeddings result: this command reads text-generation results only');
  });
});

describe('goodput export of an embeddings result', () => {
  const run = promisify(execFile);
  const goodput = (args: string[]) =>
    run('node', [fileURLToPath(new URL('../../bin/goodput.js', import.meta.url)), ...args]).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  it('writes its levels as CSV and Markdown, and refuses the per-request formats and flags by name', async () => {
    const json = join(dir, 'export-embed.json');
    expect(
      (await cli(['sweep', '--url', sim.url, '--endpoint', 'embeddings', '--levels', '1,2', '--batch-size', '3', '--prompt-tokens', '8', '--json', json])).code,
    ).toBe(0);
    const csv = await goodput(['export', json, '--format', 'csv']);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'concurrency,requests,failed,duration_s,requests_per_s,items_per_s,input_tokens_per_s,input_tokens_per_request,latency_p50_ms,latency_p95_ms,latency_p99_ms,dimension,cost_per_m_input_tokens_usd,slo_holds,failure_reasons',
    );
    expect(
      lines.slice(1).map((l) =>
        l
          .split(',')
          .slice(0, 3)
          .concat(l.split(',')[7] as string, l.split(',')[11] as string),
      ),
    ).toEqual([
      ['1', '8', '0', '24', '32'],
      ['2', '8', '0', '24', '32'],
    ]);
    const md = await goodput(['export', json, '--format', 'markdown']);
    expect(md.stdout).toContain('embeddings /v1/embeddings, model goodput-sim-1: 3 inputs of 8 tokens per request');
    const jsonl = await goodput(['export', json, '--format', 'jsonl']);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toContain("--format: an embeddings result exports as csv or markdown (one row per level); 'jsonl' is for text-generation records");
    const level = await goodput(['export', json, '--format', 'csv', '--level', '1']);
    expect(level.stderr).toContain('--level: does not apply to an embeddings result');
  });
});

describe('goodput sweep: refusals of the non-streaming flags, naming the flag', () => {
  const refused = async (args: string[], text: string) => {
    const r = await cli(['sweep', '--url', sim.url, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
  };
  it('batch sizes and document counts past the limits table, zero, or not numbers', async () => {
    await refused(['--endpoint', 'embeddings', '--batch-size', '5000'], '--batch-size');
    await refused(['--endpoint', 'embeddings', '--batch-size', '5000'], 'above the limit of 2048 inputs in one embeddings request');
    await refused(['--endpoint', 'embeddings', '--batch-size', '0'], "--batch-size: '0' must be at least 1");
    await refused(['--endpoint', 'rerank', '--documents', '2000'], 'above the limit of 1024 documents in one rerank request');
    await refused(['--endpoint', 'rerank', '--documents', 'many'], "--documents: 'many' is not a number");
  });
  it('flags of the wrong endpoint', async () => {
    await refused(['--batch-size', '4'], '--batch-size: needs --endpoint embeddings (not chat)');
    await refused(['--endpoint', 'completions', '--documents', '4'], '--documents: needs --endpoint rerank (not completions)');
    await refused(['--endpoint', 'rerank', '--batch-size', '4'], '--batch-size: needs --endpoint embeddings');
    await refused(['--endpoint', 'embeddings', '--documents', '4'], '--documents: needs --endpoint rerank');
    await refused(['--endpoint', 'embeddings', '--output-tokens', '64'], '--output-tokens: does not apply to --endpoint embeddings');
    await refused(['--endpoint', 'rerank', '--tools', '8'], '--tools: does not apply to --endpoint rerank');
    // --save and --no-save both apply (pooling-store.test.ts stores runs): the next flag's own refusal is what the user sees.
    await refused(
      ['--endpoint', 'embeddings', '--save', '--data', join(dir, 'never-db'), '--batch-size', '1000000000'],
      '--batch-size: 1000000000 is above the limit',
    );
    expect(existsSync(join(dir, 'never-db'))).toBe(false);
    await refused(
      ['--endpoint', 'chat', '--route', '/score'],
      "--route: '/score' is a path, the engine's route of --endpoint embeddings or rerank; text generation routes a fleet: round-robin, least-in-flight, session",
    );
    // --workers applies to these endpoints too (workers.test.ts sends them): what is refused is only a missing database.
    await refused(['--endpoint', 'rerank', '--workers', '2'], '--workers: needs --database-url (or GOODPUT_DATABASE_URL)');
    await refused(['--endpoint', 'embeddings', '--client-threads', '65'], '--client-threads: 65 is above the limit');
    await refused(['--endpoint', 'embeddings', '--no-save', '--batch-size', '1000000000'], '--batch-size: 1000000000 is above the limit');
  });
});
