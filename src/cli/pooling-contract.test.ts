/**
 * goodput run and rerun of embeddings and rerank contracts as a user runs them:
 * real processes, real files, the simulator over loopback. Structure, evidence
 * and refusals only; the simulator's rates are checked in the timing pass.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { contractHash, poolingContractCapacitySchema, validateContract } from '../contract/index.js';
import { canonicalJson, poolingLevel, poolingResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { cli } from '../test-support/cli-in-process.js';
import { type Doc, poolingContract } from '../test-support/pooling-contract.js';
import { sha256Hex } from '../workload/index.js';

const goodput = (args: string[]) => runGoodput(args, {}, 60_000);

let sim: SimServer;
let dir: string;
let n = 0;
const writeContract = (doc: unknown) => {
  const p = join(dir, `contract-${n++}.yaml`);
  writeFileSync(p, stringify(doc));
  return p;
};

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pooling: { dimension: 32, baseMs: 0, msPerInputToken: 0.001 } });
  dir = mkdtempSync(join(tmpdir(), 'goodput-pooling-run-'));
});
afterAll(async () => {
  await sim.close();
});

describe('goodput run with an embeddings contract', () => {
  it('writes the result with the resolved contract, its hash and every record; each level is its records', async () => {
    const json = join(dir, 'emb.json');
    const raw = join(dir, 'emb.jsonl');
    const r = await goodput(['run', writeContract(poolingContract(sim.url, 'embeddings')), '--json', json, '--raw', raw]);
    expect(r.stderr).not.toMatch(/goodput: /);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/embeddings \/v1\/embeddings: 4 inputs of 32 tokens/);
    const result = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.contractHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.contract).toMatchObject({ server: { endpoint: 'embeddings' }, workload: { batchSize: 4 }, model: { tokenizer: { kind: 'server' } } });
    expect(result.run).toMatchObject({ endpoint: 'embeddings', itemsPerRequest: 4, itemTokens: 32, latencySlo: { p: 95, maxMs: 5000 }, hourlyCostUsd: 2 });
    expect(result.serverReport?.engineVersion).toMatch(/^goodput-sim /);
    // Two levels of one warm-up and four measured requests each, in the order recorded, hashed.
    const records = result.records ?? [];
    expect(records).toHaveLength(10);
    expect(result.recordsSha256).toBe(sha256Hex(canonicalJson(records)));
    expect(readFileSync(raw, 'utf8').trim().split('\n')).toHaveLength(10);
    for (const level of result.levels) {
      const own = records.filter((x) => x.concurrency === level.concurrency);
      // The client's loop delay and busy share are not in the records: the verdict is recomputed from the stated ones.
      const cb = level.clientBound;
      expect(cb?.budgetMs).toBe(10);
      const client = cb === undefined ? null : { loopDelayMs: cb.loopDelayMs, clientCpuPct: cb.clientCpuPct, budgetMs: cb.budgetMs };
      // The server's own view of the level is beside them, from its /metrics: it agrees with the records.
      const { serverTruth, ...measured } = level;
      expect(poolingLevel(level.concurrency, own, 2, { p: 95, maxMs: 5000 }, client)).toEqual(measured);
      expect(serverTruth?.requests).toBe(own.length);
      expect(serverTruth?.comparison.map((r) => [r.metric, r.agrees])).toEqual([
        ['e2e-mean-ms', true],
        ['requests', true],
      ]);
      expect(level).toMatchObject({ failed: 0, dimension: 32, inputTokensPerRequest: 128, slo: { holds: true } });
    }
    expect(result.capacity?.concurrency).toBe(2);
  });

  it('rerun repeats it from the result: the same contract hash, the two side by side', async () => {
    const first = join(dir, 'emb-a.json');
    const again = join(dir, 'emb-b.json');
    expect((await goodput(['run', writeContract(poolingContract(sim.url, 'embeddings')), '--json', first])).code).toBe(0);
    const r = await goodput(['rerun', first, '--json', again]);
    expect(r.stderr).not.toMatch(/goodput: /);
    expect(r.code).toBe(0);
    const a = poolingResultSchema.parse(JSON.parse(readFileSync(first, 'utf8')));
    const b = poolingResultSchema.parse(JSON.parse(readFileSync(again, 'utf8')));
    expect(b.contractHash).toBe(a.contractHash);
    expect(b.contract).toEqual(a.contract);
    expect(r.stdout).toContain(`same contract (${a.contractHash?.slice(0, 12)})`);
    expect(r.stdout).toMatch(/inputs\/s/);
  });

  it('a rerank contract with repeats keeps every run and its records', async () => {
    const json = join(dir, 'rerank.json');
    const r = await goodput([
      'run',
      writeContract(
        poolingContract(sim.url, 'rerank', (c) => {
          c.repeats = 3;
          c.load.levels = [1];
        }),
      ),
      '--json',
      json,
    ]);
    expect(r.stderr).not.toMatch(/goodput: /);
    expect(r.code).toBe(0);
    const result = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.run).toMatchObject({ endpoint: 'rerank', path: '/v1/rerank', itemsPerRequest: 8, queryTokens: 8 });
    expect(result.contract).toMatchObject({ repeats: 3 });
    expect(result.repeats).toHaveLength(2);
    for (const run of [result, ...(result.repeats ?? [])]) {
      expect(run.records).toHaveLength(5);
      expect(run.recordsSha256).toBe(sha256Hex(canonicalJson(run.records)));
      expect(run.levels[0]).toMatchObject({ failed: 0, inputTokensPerRequest: 8 * (8 + 32) });
    }
  });

  it('a latency objective the simulator cannot meet is judged per level', async () => {
    const json = join(dir, 'slo.json');
    // Four inputs of 32 tokens take the encoder 0.128 ms: a p50 of 0.001 ms is missed at every level.
    const r = await goodput([
      'run',
      writeContract(
        poolingContract(sim.url, 'embeddings', (c) => {
          c.slo = { e2eMs: { p: 50, max: 0.001 } };
        }),
      ),
      '--json',
      json,
    ]);
    expect(r.code).toBe(0);
    const result = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels.map((l) => l.slo?.holds)).toEqual([false, false]);
    expect(result.capacity).toMatchObject({ concurrency: null });
    expect(result.capacity?.statement).toMatch(/no level meets latency p50 ≤ 0.001 ms/);
  });
});

describe('goodput capacity with an embeddings contract', () => {
  it("finds the highest concurrency the simulator's encoder schedule lets meet the latency objective", async () => {
    // One encoder serves requests in turn, each for baseMs + tokens × msPerInputToken: closed-loop at concurrency c a request waits c of them.
    const profile = { dimension: 16, baseMs: 60, msPerInputToken: 0.01 };
    const slow = await startSimulator({ port: 0, pooling: profile });
    try {
      const serviceMs = profile.baseMs + 4 * 32 * profile.msPerInputToken;
      // Half a request's service time either side of the boundary; the median, which a late timer under load barely moves.
      const maxMs = 4.5 * serviceMs;
      const expected = Math.floor(maxMs / serviceMs);
      const json = join(dir, 'capacity.json');
      const path = writeContract(
        poolingContract(slow.url, 'embeddings', (c) => {
          c.load.levels = [1, 2, 8];
          c.workload.requestsPerLevel = 'auto';
          c.slo = { e2eMs: { p: 50, max: maxMs } };
        }),
      );
      const r = await goodput(['capacity', path, '--json', json]);
      expect(r.stderr).not.toMatch(/goodput: /);
      expect(r.code).toBe(0);
      const report = poolingContractCapacitySchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(report).toMatchObject({ verdict: 'found', capacity: expected, stepSize: 1, endpoint: 'embeddings', slo: { p: 50, maxMs } });
      expect(report.probes.map((p) => [p.level, p.phase, p.holds])).toEqual([
        [1, 'coarse', true],
        [2, 'coarse', true],
        [8, 'coarse', false],
        [5, 'bisect', false],
        [3, 'bisect', true],
        [4, 'bisect', true],
      ]);
      expect(report.evidence.below).toMatchObject({ concurrency: expected, failed: 0, slo: { holds: true } });
      expect(report.evidence.above).toMatchObject({ concurrency: expected + 1, slo: { holds: false } });
      expect(report.contract).toMatchObject({ server: { endpoint: 'embeddings' } });
      expect(report.statement).toBe(
        `capacity at SLO (latency p50 ≤ ${maxMs} ms): concurrency ${expected}; concurrency ${expected + 1} misses (${report.probes[3]?.reason})`,
      );
    } finally {
      await slow.close();
    }
  });
});

describe('bad embeddings and rerank contracts are refused naming the field, nothing sent', () => {
  const cases: Array<[string, 'embeddings' | 'rerank', (c: Doc) => void, RegExp]> = [
    [
      'output tokens',
      'embeddings',
      (c) => {
        c.workload.outputTokens = 16;
      },
      /workload\.outputTokens: does not apply to server\.endpoint embeddings/,
    ],
    [
      'tools',
      'embeddings',
      (c) => {
        c.workload.tools = { kind: 'builtin', count: 1 };
        c.decoding = { ignoreEos: false };
      },
      /workload\.tools: tools need server\.endpoint chat/,
    ],
    [
      'images',
      'rerank',
      (c) => {
        c.workload.images = { perRequest: 1, width: 64, height: 64, format: 'png' };
      },
      /workload\.images: images need server\.endpoint chat/,
    ],
    [
      'a TTFT objective',
      'embeddings',
      (c) => {
        c.slo = { ttftMs: { p: 95, max: 100 } };
      },
      /slo\.ttftMs: does not apply to server\.endpoint embeddings/,
    ],
    [
      'no latency objective',
      'rerank',
      (c) => {
        c.slo = { tpotMs: { p: 95, max: 100 } };
      },
      /slo\.e2eMs: server\.endpoint rerank is judged by latency/,
    ],
    [
      'a batch past the limits table',
      'embeddings',
      (c) => {
        c.workload.batchSize = 4096;
      },
      /workload\.batchSize: batchSize 4096 is above the limit of 2048/,
    ],
    [
      'documents past the limits table',
      'rerank',
      (c) => {
        c.workload.documents = 5000;
      },
      /workload\.documents: documents 5000 is above the limit of 1024/,
    ],
    [
      'no batch size',
      'embeddings',
      (c) => {
        delete c.workload.batchSize;
      },
      /workload\.batchSize: server\.endpoint embeddings needs workload\.batchSize/,
    ],
    [
      'documents with embeddings',
      'embeddings',
      (c) => {
        c.workload.documents = 4;
      },
      /workload\.documents: does not apply to server\.endpoint embeddings \(it needs server\.endpoint rerank\)/,
    ],
    [
      'a prompt-length matrix',
      'embeddings',
      (c) => {
        c.workload.prompts.tokens = [32, 64];
      },
      /workload\.prompts: server\.endpoint embeddings sends synthetic texts of one length/,
    ],
    [
      'a warm cache',
      'rerank',
      (c) => {
        c.workload.cache = { kind: 'warm', sharedPrefixTokens: 8 };
      },
      /workload\.cache: does not apply to server\.endpoint rerank/,
    ],
    [
      'a rate pattern',
      'embeddings',
      (c) => {
        c.load = { pattern: { kind: 'rate' }, levels: [2] };
      },
      /load\.pattern\.kind: server\.endpoint embeddings runs closed-loop concurrency levels/,
    ],
    [
      'thinking',
      'embeddings',
      (c) => {
        c.thinking = 'on';
      },
      /thinking: does not apply to server\.endpoint embeddings/,
    ],
    [
      'a temperature',
      'rerank',
      (c) => {
        c.decoding = { temperature: 0.7 };
      },
      /decoding\.temperature: does not apply to server\.endpoint rerank/,
    ],
    [
      'a batch size on chat',
      'embeddings',
      (c) => {
        c.server.endpoint = 'chat';
        c.workload.outputTokens = 8;
        c.slo = { e2eMs: { p: 95, max: 100 } };
      },
      /workload\.batchSize: needs server\.endpoint embeddings/,
    ],
    [
      'chat without output tokens',
      'embeddings',
      (c) => {
        c.server.endpoint = 'chat';
        delete c.workload.batchSize;
      },
      /workload\.outputTokens: outputTokens is required for server\.endpoint chat/,
    ],
    [
      'an unknown endpoint',
      'embeddings',
      (c) => {
        c.server.endpoint = 'score';
      },
      /server\.endpoint: endpoint must be chat, completions, embeddings or rerank/,
    ],
  ];
  it('the hash covers the pooling fields and the latency objective, not where the server is', () => {
    const hash = (endpoint: 'embeddings' | 'rerank', edit: (c: Doc) => void = () => {}) =>
      contractHash(validateContract(poolingContract('http://127.0.0.1:9', endpoint, edit), 'c.yaml', dir));
    const base = hash('embeddings');
    expect(
      hash('embeddings', (c) => {
        c.server.url = 'http://127.0.0.1:10';
      }),
    ).toBe(base);
    for (const edit of [
      (c: Doc) => {
        c.workload.batchSize = 8;
      },
      (c: Doc) => {
        c.workload.prompts.tokens = 64;
      },
      (c: Doc) => {
        c.slo.e2eMs.max = 100;
      },
    ])
      expect(hash('embeddings', edit)).not.toBe(base);
    expect(
      hash('rerank', (c) => {
        c.workload.queryTokens = 16;
      }),
    ).not.toBe(hash('rerank'));
    expect(
      hash('rerank', (c) => {
        c.workload.documents = 16;
      }),
    ).not.toBe(hash('rerank'));
  });

  it.each(cases)('%s', (_what, endpoint, edit, message) => {
    expect(() => validateContract(poolingContract('http://127.0.0.1:9', endpoint, edit), 'contract.yaml', dir)).toThrow(message);
  });

  it('goodput run says so and sends nothing', async () => {
    const before = sim.stats().pooling.requests;
    const r = await goodput([
      'run',
      writeContract(
        poolingContract(sim.url, 'embeddings', (c) => {
          c.workload.batchSize = 4096;
        }),
      ),
      '--json',
      join(dir, 'never.json'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/workload\.batchSize: batchSize 4096 is above the limit of 2048/);
    expect(sim.stats().pooling.requests).toBe(before);
  });

  it('what a pooling run still cannot do is refused by name, sending nothing', async () => {
    const path = writeContract(poolingContract(sim.url, 'embeddings'));
    const before = sim.stats().pooling.requests;
    const json = join(dir, 'never.json');
    for (const [flags, message] of [
      [['--json', json, '--quality-baseline', sim.url], '--quality-baseline: an embeddings or rerank contract generates no text to score'],
      [['--sign'], '--sign: signs the result file: give --json FILE'],
      [['--json', '-', '--key', join(dir, 'no.key')], '--key: signs the result file: give --json FILE'],
      [['--json', json, '--key', join(dir, 'no.key')], `--key: ${join(dir, 'no.key')} `],
      [
        ['--json', json, '--repeats', '3', '--save', '--data', join(dir, 'never-db')],
        '--save: cannot be combined with --repeats: a stored run is one run; keep the repeated runs with --json',
      ],
    ] as const) {
      const r = await cli(['run', path, ...flags]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(existsSync(json)).toBe(false);
    }
    expect(sim.stats().pooling.requests).toBe(before);
  });
});

describe('goodput run of an embeddings or rerank contract, signed and stored', () => {
  const keys = () => join(dir, 'keys');
  const keyFile = () => join(keys(), 'publisher.key');
  beforeAll(async () => {
    expect((await cli(['keys', 'create', '--dir', keys()])).code).toBe(0);
  });

  it('--key signs the result beside it, as a text run is signed; keys verify-result checks it', async () => {
    const json = join(dir, 'signed-emb.json');
    const r = await cli(['run', writeContract(poolingContract(sim.url, 'embeddings')), '--json', json, '--key', keyFile()]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(`${json}.dsse.json`)).toBe(true);
    const result = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    // One run carries no set.
    expect(result.runSet).toBeUndefined();
    const checked = await cli(['keys', 'verify-result', json, '--key', join(keys(), 'publisher.pub')]);
    expect(checked.code, checked.stderr).toBe(0);
    writeFileSync(json, readFileSync(json, 'utf8').replace('"itemsPerRequest": 4', '"itemsPerRequest": 5'));
    const edited = await cli(['keys', 'verify-result', json, '--key', join(keys(), 'publisher.pub')]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain('[rule: signature]');
  });

  it('--repeats 3 with --key signs the set: a manifest of 3 runs over the contract, and each run at its place', async () => {
    const json = join(dir, 'signed-rerank.json');
    const r = await cli(['run', writeContract(poolingContract(sim.url, 'rerank')), '--repeats', '3', '--json', json, '--key', keyFile()]);
    expect(r.code, r.stderr).toBe(0);
    // A signed set is named by its manifest, not by a random id.
    expect(r.stderr).toMatch(/run 1 of 3\n/);
    const result = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const set = result.runSet;
    if (set === undefined) throw new Error('no signed set');
    const statement = (env: { payload: string }) => JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8')) as Record<string, unknown>;
    expect(statement(set.manifest)).toMatchObject({ version: 'goodput-run-set/1', n: 3, contractHash: result.contractHash });
    expect(set.runs.map((env) => statement(env)['index'])).toEqual([1, 2, 3]);
    expect(result.repeats).toHaveLength(2);
    // The set's own rules (each run's signature against what its receipt ships) are checked in publish/pooling-run-set-e2e.test.ts.
  });

  it('--save stores one run as goodput sweep --save stores a pooling sweep, level by level', async () => {
    const json = join(dir, 'stored-emb.json');
    const data = join(dir, 'contract-db');
    const r = await cli(['run', writeContract(poolingContract(sim.url, 'embeddings')), '--json', json, '--save', '--data', data]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/level c=1 stored in run 1\n[\s\S]*level c=2 stored in run 1\n/);
    expect(r.stderr).toContain(`stored as run 1 (complete) in embedded database at ${data}`);
    const out = join(dir, 'stored-export.json');
    const exported = await cli(['runs', 'export', '1', '--out', out, '--data', data]);
    expect(exported.code, exported.stderr).toBe(0);
    const written = poolingResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const stored = poolingResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(stored.run).toEqual(written.run);
    expect(stored.levels).toEqual(written.levels);
    expect(stored.peak).toEqual(written.peak);
    const listed = await cli(['runs', 'list', '--data', data]);
    expect(listed.stdout).toContain('embeddings');
  });
});
