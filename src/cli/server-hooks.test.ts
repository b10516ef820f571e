/**
 * The server hooks as a user runs them: a contract whose second cell would be
 * served from what the first left in the simulator's prefix cache is cold with
 * `--reset-cache-between cells`, each reset kept on its level; the profiler
 * around one level; and every refusal, by name, before a request is sent.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli as inProcess } from '../test-support/cli-in-process.js';
import { type TextServer, startTextServer } from '../test-support/text-server.js';

let dir: string;
const sims: SimServer[] = [];
const fast = { prefillBaseMs: 1, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const sim = async (o: Parameters<typeof startSimulator>[0] = {}) => {
  const s = await startSimulator({ ...fast, ...o });
  sims.push(s);
  return s;
};
let tgi: TextServer;
/** Nothing is stored: a test never writes to a data folder outside its temp folder. */
const cli = (args: string[]) => inProcess([...args, '--no-save']);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'goodput-hooks-'));
  writeFileSync(
    join(dir, 'prompts.jsonl'),
    ['alpha beta gamma', 'delta epsilon zeta', 'eta theta iota'].map((p) => JSON.stringify({ prompt: p })).join('\n') + '\n',
  );
  // A server that looks like TGI and is not the simulator: no route empties its cache.
  tgi = await startTextServer((path) =>
    path === '/v1/models'
      ? { body: JSON.stringify({ object: 'list', data: [{ id: 'tgi-model', object: 'model', owned_by: 'tgi' }] }), contentType: 'application/json' }
      : path === '/info'
        ? { body: JSON.stringify({ router: 'text-generation-router', version: '3.0.0', model_id: 'tgi-model' }), contentType: 'application/json' }
        : null,
  );
});
afterAll(async () => {
  await Promise.all([...sims.map((s) => s.close()), tgi?.close()]);
});

/** Two cells (output 8 and 16) sharing one 32-token prefix, one request each and no warm-up: the second is served from the first's cache unless it was emptied. */
function contractFile(url: string, name: string): string {
  const path = join(dir, `${name}.yaml`);
  const c = {
    version: 1,
    server: { url },
    model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
    workload: {
      prompts: { kind: 'jsonl', path: join(dir, 'prompts.jsonl') },
      outputTokens: [8, 16],
      cache: { kind: 'warm', sharedPrefixTokens: 32 },
      requestsPerLevel: 1,
      warmup: 0,
    },
    load: { levels: [1] },
    slo: { ttftMs: { p: 95, max: 60_000 } },
    hardware: { label: 'SimGPU 80GB' },
  };
  writeFileSync(path, stringify(c));
  return path;
}

async function runContract(name: string, flags: string[]): Promise<SweepResult> {
  const s = await sim();
  const out = join(dir, `${name}.json`);
  const ran = await cli(['run', contractFile(s.url, name), '--json', out, ...flags]);
  expect(ran.code).toBe(0);
  return sweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
}

const cached = (r: SweepResult, cell: number) => r.matrix?.cells[cell]?.levels[0]?.cachedPromptTokens?.mean;

describe('--reset-cache-between cells', () => {
  it('gives a cold second cell (0 cached tokens) where it is warm without the flag', async () => {
    const warm = await runContract('warm', []);
    expect(cached(warm, 1)).toBeGreaterThan(0);
    expect(warm.matrix?.cells[1]?.levels[0]?.serverHooks).toBeUndefined();

    const cold = await runContract('cold', ['--reset-cache-between', 'cells']);
    expect(cached(cold, 0)).toBe(0);
    expect(cached(cold, 1)).toBe(0);
    for (const c of cold.matrix?.cells ?? []) {
      expect(c.levels[0]?.serverHooks).toEqual([
        {
          hook: 'reset-cache',
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          route: 'POST /sim/reset-prefix-cache',
          status: 200,
          ms: expect.any(Number),
          answer: expect.stringMatching(/^\{"cleared_blocks":\d+\}$/),
        },
      ]);
    }
    // The second cell's reset emptied what the first cell left.
    expect(cold.matrix?.cells[1]?.levels[0]?.serverHooks?.[0]?.answer).not.toBe('{"cleared_blocks":0}');
  });
});

describe('--reset-cache-between levels', () => {
  it("erases every llama.cpp slot before each level, the engine's own routes kept on the level", async () => {
    const s = await sim({ dialect: 'llamacpp', maxBatch: 2 });
    const out = join(dir, 'llama.json');
    const ran = await cli([
      'sweep',
      '--url',
      s.url,
      '--levels',
      '1,2',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '24',
      '--output-tokens',
      '8',
      '--reset-cache-between',
      'levels',
      '--json',
      out,
    ]);
    expect(ran.code).toBe(0);
    const r = sweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    for (const l of r.levels) {
      expect(l.serverHooks?.map((c) => `${c.route} ${c.status}`)).toEqual([
        'GET /props 200',
        'POST /slots/0?action=erase 200',
        'POST /slots/1?action=erase 200',
      ]);
    }
  });
});

describe('--profile-level', () => {
  it("starts vLLM's profiler before that level and stops it after, on that level alone", async () => {
    const s = await sim({ dialect: 'vllm' });
    const out = join(dir, 'profile.json');
    const ran = await cli([
      'sweep',
      '--url',
      s.url,
      '--levels',
      '1,2',
      '--requests-per-level',
      '2',
      '--prompt-tokens',
      '24',
      '--output-tokens',
      '8',
      '--profile-level',
      '2',
      '--json',
      out,
    ]);
    expect(ran.code).toBe(0);
    const r = sweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(r.levels[0]?.serverHooks).toBeUndefined();
    expect(r.levels[1]?.serverHooks?.map((c) => [c.hook, c.route, c.status])).toEqual([
      ['start-profile', 'POST /start_profile', 200],
      ['stop-profile', 'POST /stop_profile', 200],
    ]);
  });
});

describe('refusals, before a request is sent', () => {
  it('an engine with no cache reset, named', async () => {
    const before = tgi.requests.length;
    const ran = await cli(['sweep', '--url', tgi.url, '--levels', '1', '--tokenizer', 'approximate', '--reset-cache-between', 'levels']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      '--reset-cache-between: TGI has no route that empties its prefix cache (vLLM, SGLang, llama.cpp and the goodput simulator have one); nothing was sent',
    );
    expect(tgi.requests.slice(before).filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('an engine with no profiler, named', async () => {
    const s = await sim();
    const ran = await cli(['sweep', '--url', s.url, '--levels', '1', '--profile-level', '1']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      '--profile-level: the goodput simulator has no profiler routes (vLLM and SGLang serve /start_profile and /stop_profile); nothing was sent',
    );
    expect(s.stats().accepted).toBe(0);
  });

  it('a level that is not one of the levels, and cells in a sweep', async () => {
    const s = await sim();
    const notALevel = await cli(['sweep', '--url', s.url, '--levels', '1,2', '--profile-level', '3']);
    expect(notALevel.code).toBe(2);
    expect(notALevel.stderr).toContain('--profile-level: 3 is not one of the levels (1, 2)');
    const cells = await cli(['sweep', '--url', s.url, '--levels', '1', '--reset-cache-between', 'cells']);
    expect(cells.code).toBe(2);
    expect(cells.stderr).toContain("--reset-cache-between: cells are a contract's (goodput run); a sweep is one cell: use levels");
    expect(s.stats().accepted).toBe(0);
  });
});
