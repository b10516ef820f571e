/**
 * Several LoRA adapters in one run, as a user runs it against the simulator
 * serving two: weighted 3:1, each request names the adapter its seed draws
 * (the same draw on a rerun and over client threads), each level gives each
 * adapter's figures and they add up to the level's, the slower adapter shows
 * it, and every refusal (an adapter the server does not list, one of another
 * base model, a malformed mix) is named before a request is sent.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SweepResult, adapterAt, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli as inProcess } from '../test-support/cli-in-process.js';
import { receiptCli } from '../test-support/receipt-cli.js';
import { type TextServer, startTextServer } from '../test-support/text-server.js';

let dir: string;
let sim: SimServer;
/** The same adapters on a server that decodes faster: a receipt's optimized side. */
let fast: SimServer;
let other: TextServer;
const MIX = [
  { name: 'sql-lora', weight: 3 },
  { name: 'chat-lora', weight: 1 },
];
/** Nothing is stored: a test never writes to a data folder outside its temp folder. */
const cli = (args: string[]) => inProcess([...args, '--no-save']);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'goodput-lora-'));
  // chat-lora decodes 5 ms slower per step than the base model and sql-lora.
  sim = await startSimulator({
    prefillBaseMs: 1,
    decodeStepMs: 1,
    decodeMsPerExtraSeq: 0,
    loraAdapters: [{ name: 'sql-lora' }, { name: 'chat-lora', decodeExtraMs: 5 }],
  });
  fast = await startSimulator({
    prefillBaseMs: 1,
    decodeStepMs: 0.5,
    decodeMsPerExtraSeq: 0,
    loraAdapters: [{ name: 'sql-lora' }, { name: 'chat-lora', decodeExtraMs: 5 }],
  });
  // vLLM's shape: an adapter listed with the base model it was loaded on as its parent, here another one.
  other = await startTextServer((path) =>
    path === '/v1/models'
      ? {
          body: JSON.stringify({
            object: 'list',
            data: [
              { id: 'base-a', object: 'model', owned_by: 'vllm', parent: null },
              { id: 'sql-lora', object: 'model', owned_by: 'vllm', parent: 'base-b' },
            ],
          }),
          contentType: 'application/json',
        }
      : null,
  );
});
afterAll(async () => {
  await Promise.all([sim?.close(), fast?.close(), other?.close()]);
});

const base = ['--levels', '2', '--requests-per-level', '40', '--warmup', '1', '--output-tokens', '16', '--seed', '7'];

/** A sweep over the mix: its result and each record's adapter by sequence number. */
async function sweep(name: string, more: string[] = []): Promise<{ result: SweepResult; drawn: Map<number, string> }> {
  const json = join(dir, `${name}.json`);
  const raw = join(dir, `${name}.jsonl`);
  const ran = await cli(['sweep', '--url', sim.url, '--lora', 'sql-lora=3,chat-lora=1', ...base, ...more, '--json', json, '--raw', raw]);
  expect(ran.stderr).not.toMatch(/goodput: /);
  expect(ran.code).toBe(0);
  const records = readFileSync(raw, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { seq: number; adapter?: string });
  return {
    result: sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8'))),
    drawn: new Map(records.sort((a, b) => a.seq - b.seq).map((r) => [r.seq, r.adapter ?? ''])),
  };
}

describe('goodput sweep --lora', () => {
  it('sends 3:1 by weight, as the seed draws, with per-adapter figures that add up to the level', async () => {
    const { result, drawn } = await sweep('mix');
    expect(result.run.lora).toEqual(MIX);
    const level = result.levels[0];
    const adapters = level?.adapters ?? [];
    expect(adapters.map((a) => a.name)).toEqual(['chat-lora', 'sql-lora']);
    const [chat, sql] = adapters;
    // Exactly what the seed draws for the measured requests 1..40 (request 0 is the warm-up).
    const expected = Array.from({ length: 40 }, (_, i) => adapterAt(MIX, 7, 2, i + 1));
    expect(sql?.requests).toBe(expected.filter((n) => n === 'sql-lora').length);
    expect(sql?.requests).toBeGreaterThanOrEqual(29);
    expect(sql?.requests).toBeLessThanOrEqual(31);
    for (const [seq, name] of drawn) expect(name).toBe(adapterAt(MIX, 7, 2, seq));
    // The figures add up to the level's.
    const sum = (f: (a: (typeof adapters)[number]) => number) => adapters.reduce((s, a) => s + f(a), 0);
    expect(sum((a) => a.requests)).toBe(level?.requests);
    expect(sum((a) => a.failed)).toBe(level?.failed);
    expect(sum((a) => a.outputTokensTotal)).toBe(level?.outputTokensTotal);
    expect(sum((a) => a.throughputTokS)).toBeCloseTo(level?.throughputTokS ?? -1, 6);
    // The slower adapter's decode shows in its own TPOT, not in the other's.
    expect(chat?.tpotMs?.p50 ?? 0).toBeGreaterThan((sql?.tpotMs?.p50 ?? Infinity) + 2);
  });

  it('draws the same adapter for the same request on a rerun and over client threads, and another draw with another seed', async () => {
    const one = await sweep('one', ['--client-threads', '1']);
    const two = await sweep('two', ['--client-threads', '2']);
    expect([...two.drawn]).toEqual([...one.drawn]);
    const reseeded = await sweep('reseeded', ['--seed', '8']);
    expect([...reseeded.drawn]).not.toEqual([...one.drawn]);
  });

  it('prints each adapter under the table', async () => {
    const ran = await cli(['sweep', '--url', sim.url, '--lora', 'sql-lora=3,chat-lora=1', ...base]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("LoRA adapters (each request's model drawn by weight; their figures add up to the level's):");
    expect(ran.stdout).toMatch(
      /2 streams · chat-lora: \d+ requests, 0 failed, [\d.]+ tok\/s, TTFT p50 [\d.]+ ms p99 [\d.]+ ms, TPOT p50 [\d.]+ ms p95 [\d.]+ ms/,
    );
    expect(ran.stdout).toMatch(/2 streams · sql-lora: \d+ requests, 0 failed/);
  });
});

describe("a contract's workload.lora (goodput run)", () => {
  /** A one-cell contract over the mix, run against `url`: its result. */
  async function runContract(name: string, url: string): Promise<SweepResult> {
    const contract = join(dir, `${name}.yaml`);
    writeFileSync(
      contract,
      stringify({
        version: 1,
        server: { url },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 16, requestsPerLevel: 40, warmup: 1, lora: MIX },
        decoding: { seed: 7 },
        load: { levels: [2] },
        slo: { ttftMs: { p: 95, max: 60_000 } },
        hardware: { label: 'SimGPU 80GB' },
      }),
    );
    const out = join(dir, `${name}.json`);
    const ran = await cli(['run', contract, '--json', out]);
    expect(ran.code).toBe(0);
    return sweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
  }

  it('sends the mix it declares and reports each adapter per level', async () => {
    const result = await runContract('lora-run', sim.url);
    expect(result.run.lora).toEqual(MIX);
    const level = result.levels[0];
    const names = Array.from({ length: 40 }, (_, i) => adapterAt(MIX, 7, 2, i + 1));
    expect(level?.adapters?.map((a) => [a.name, a.requests])).toEqual([
      ['chat-lora', names.filter((n) => n === 'chat-lora').length],
      ['sql-lora', names.filter((n) => n === 'sql-lora').length],
    ]);
  });

  it("makes a receipt whose adapters recompute from the records, and refuses a run's mix or an adapter's figure rewritten", async () => {
    const baseline = await runContract('lora-baseline', sim.url);
    const optimized = await runContract('lora-optimized', fast.url);
    const receipts = receiptCli(dir, 'faster decode');
    const made = await receipts.create('lora', baseline, optimized, join(dir, 'receipts', 'lora.json'));
    expect(made.code, made.stderr).toBe(0);
    const site = join(dir, 'site');
    expect((await inProcess(['publish', '--receipts', join(dir, 'receipts'), '--out', site])).code).toBe(0);
    const verified = await inProcess(['verify', site]);
    expect(verified.code, verified.stderr + verified.stdout).toBe(0);
    const mixRewritten = { ...optimized, run: { ...optimized.run, lora: [{ name: 'sql-lora', weight: 1 }] } };
    expect(await receipts.refused('mix', baseline, mixRewritten)).toContain(
      'evidence.optimized: run 1 run.lora: states [{"name":"sql-lora","weight":1}], the hash-checked contract [{"name":"sql-lora","weight":3},{"name":"chat-lora","weight":1}]; only the contract states the workload [rule: contract-speaks]',
    );
    const level = optimized.levels[0] as NonNullable<(typeof optimized.levels)[number]>;
    const [chat, sql] = level.adapters ?? [];
    const moved = { ...optimized, levels: [{ ...level, adapters: [{ ...chat, requests: (chat?.requests ?? 0) + 1 }, sql] }] };
    expect(await receipts.refused('figure', baseline, moved)).toMatch(
      /evidence\.optimized: run 1 levels\[c=2\]\.adapters\[0\]\.requests: .* \[rule: records-reproduce\]/,
    );
  });

  it('is refused on an embeddings endpoint, naming the field', async () => {
    const contract = join(dir, 'lora-embeddings.yaml');
    writeFileSync(
      contract,
      stringify({
        version: 1,
        server: { url: sim.url, endpoint: 'embeddings' },
        model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
        workload: { prompts: { kind: 'synthetic', tokens: 16 }, lora: MIX },
        load: { levels: [1] },
        slo: { ttftMs: { p: 95, max: 60_000 } },
        hardware: { label: 'SimGPU 80GB' },
      }),
    );
    const ran = await cli(['run', contract, '--json', join(dir, 'never.json')]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("workload.lora: LoRA adapters are a generation model's: not for server.endpoint embeddings");
    expect(existsSync(join(dir, 'never.json'))).toBe(false);
  });
});

describe('goodput sweep --lora refuses, before a request is sent', () => {
  const refused = async (url: string, mix: string, message: string) => {
    const json = join(dir, 'refused.json');
    const ran = await cli(['sweep', '--url', url, '--lora', mix, ...base, '--json', json]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(message);
    expect(existsSync(json)).toBe(false);
  };

  it('an adapter the server does not list, by name', async () => {
    const before = sim.stats().accepted;
    await refused(
      sim.url,
      'sql-lora=3,nope-lora=1',
      `--lora: adapter "nope-lora" is not listed in the /v1/models of ${sim.url} (it lists goodput-sim-1, sql-lora, chat-lora); load it on the server (vLLM: --lora-modules nope-lora=PATH) or leave it out of --lora`,
    );
    expect(sim.stats().accepted).toBe(before);
  });

  it("an adapter listed with another base model as its parent than the run's", async () => {
    await refused(
      other.url,
      'sql-lora=1',
      `--lora: adapter "sql-lora" is listed with parent "base-b", not the run's model "base-a"; one run measures one base model: name it with --model`,
    );
    expect(other.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it("a fleet target that does not list an adapter, by the target's URL", async () => {
    // Before: only the first target's list was asked, and the second turned its share of sql-lora into 404s.
    const bare = await startSimulator({ prefillBaseMs: 1, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
    try {
      const before = sim.stats().accepted + bare.stats().accepted;
      const json = join(dir, 'fleet-refused.json');
      const ran = await cli(['sweep', '--url', sim.url, '--url', bare.url, '--lora', 'sql-lora=3,chat-lora=1', ...base, '--json', json]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(
        `--lora: adapter "sql-lora" is not listed in the /v1/models of ${bare.url} (it lists goodput-sim-1); load it on the server (vLLM: --lora-modules sql-lora=PATH) or leave it out of --lora`,
      );
      expect(existsSync(json)).toBe(false);
      expect(sim.stats().accepted + bare.stats().accepted).toBe(before);
    } finally {
      await bare.close();
    }
  });

  it('a hostile model list: too many ids, an id too long or holding a control character, a parent with a line break', async () => {
    // Before: any list was taken; its ids became the run's model, the refusal's list and every message naming them.
    const cases: Array<[unknown[], string]> = [
      [Array.from({ length: 10_001 }, (_, i) => ({ id: `m${i}` })), 'data 10001 is above the limit of 10000 models one server lists in /v1/models'],
      [
        [{ id: 'base-a' }, { id: 'x'.repeat(1025) }],
        'data[1].id length 1025 is above the limit of 1024 characters in one model id (or its parent) a server lists in /v1/models',
      ],
      [[{ id: '\u001b]0;owned\u0007base-a' }], 'data[0].id holds a control character or a line break'],
      [[{ id: 'base-a' }, { id: 'sql-lora', parent: 'base-a\nall good' }], 'data[1].parent holds a control character or a line break'],
    ];
    for (const [data, message] of cases) {
      const hostile = await startTextServer((path) =>
        path === '/v1/models' ? { body: JSON.stringify({ object: 'list', data }), contentType: 'application/json' } : null,
      );
      try {
        await refused(hostile.url, 'sql-lora=1', `${hostile.url} cannot be benchmarked: its /v1/models ${message}`);
        expect(hostile.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
      } finally {
        await hostile.close();
      }
    }
  });

  it('a model list that trickles in for ever, given up within the time preflight has', async () => {
    const trickle = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(trickle.address() as AddressInfo).port}`;
    try {
      await refused(url, 'sql-lora=1', `${url} cannot be benchmarked: ${url}/v1/models did not answer within 5000 ms`);
    } finally {
      trickle.closeAllConnections();
      trickle.close();
    }
  });

  it('a malformed mix, naming the flag', async () => {
    await refused(sim.url, 'sql-lora=0', '--lora: adapter sql-lora: an adapter weight must be above 0');
    await refused(sim.url, 'sql-lora', '--lora: adapter 1 is not name=weight (e.g. sql-lora=3,chat-lora=1)');
    await refused(sim.url, 'sql-lora=1,sql-lora=2', '--lora: adapter 2: sql-lora is named twice; name each adapter once');
  });
});
