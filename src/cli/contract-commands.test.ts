/**
 * goodput run, rerun, capacity and export as a user runs them: real processes,
 * real files, the simulator over loopback. Timing comparisons are in the
 * *.timing.test.ts files; here only structure, files and messages.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGoodput } from '../test-support/goodput-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { sweepResultSchema } from '../core/index.js';
import { sha256Hex } from '../workload/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';

const goodput = (args: string[]) => runGoodput(args, {}, 60_000);

let sim: SimServer;
let dir: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const contract = (over: (c: Record<string, any>) => void = () => {}) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const c: Record<string, any> = {
    version: 1,
    server: { url: sim.url },
    model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
    workload: { prompts: { kind: 'synthetic', tokens: 24 }, outputTokens: 16, requestsPerLevel: 4, warmup: 1 },
    load: { levels: [2, 1] },
    slo: { ttftMs: { p: 95, max: 2000 }, tpotMs: { p: 50, max: 1000 } },
    hardware: {
      label: 'SimGPU 80GB',
      gpuHourlyUsd: 6.5,
      priceAsOf: '2025-06-01',
      utilisation: 0.55,
      utilisationAsOf: '2025-06-01',
      overheads: [{ name: 'CPU', usdPerHour: 0.3, asOf: '2025-05-30' }],
    },
  };
  over(c);
  return c;
};
let n = 0;
const writeContract = (doc: unknown) => {
  const p = join(dir, `contract-${n++}.yaml`);
  writeFileSync(p, stringify(doc));
  return p;
};

beforeAll(async () => {
  sim = await startSimulator({ port: 0, prefillBaseMs: 3, prefillMsPerToken: 0.01, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
  dir = mkdtempSync(join(tmpdir(), 'goodput-run-'));
});
afterAll(async () => {
  await sim.close();
});

describe('goodput run', () => {
  const json = () => join(dir, 'run.json');
  const raw = () => join(dir, 'run.jsonl');
  it('writes a result that embeds the resolved contract, its hash, the versions and the exact command', async () => {
    const r = await goodput(['run', writeContract(contract()), '--json', json(), '--raw', raw()]);
    expect(r.stderr).not.toMatch(/goodput: /);
    expect(r.code).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json(), 'utf8')));
    expect(result.contractHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.contract).toMatchObject({ model: { tokenizer: { kind: 'server' } }, load: { levels: [2, 1] } });
    expect(result.tokenizer).toMatchObject({ kind: 'server', exact: true });
    expect(result.serverReport?.engineVersion).toMatch(/^goodput-sim /);
    expect(result.run.command).toMatch(/^goodput run .*contract-\d+\.yaml --json/);
    expect(result.run.toolVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.levels.map((l) => l.concurrency)).toEqual([1, 2]);
    // Exact prompt length via the server's /tokenize; the simulator reports what it saw.
    expect(result.levels.every((l) => l.promptTokens.mean === 24)).toBe(true);
    expect(result.levels[0]?.goodput).toMatchObject({ requests: 4, met: 4, share: 1, holds: true });
    expect(result.businessCost?.inputs.map((i) => i.asOf)).toContain('2025-05-30');
    expect(r.stdout).toMatch(/Goodput against TTFT p95 ≤ 2000 ms, TPOT p50 ≤ 1000 ms/);
    // A figure, or (on a machine so loaded that every level was client-bound) the reason there is none.
    expect(r.stdout).toMatch(/Cost per successful 1M output tokens: (\$\d+\.\d\d|no figure \(no valid level)/);
    const lines = readFileSync(raw(), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2 * (1 + 4));
    expect(lines.every((l) => l.cell === 0)).toBe(true);
  });

  it('exports every request record as jsonl, csv and columnar JSON, and the summary as Markdown', async () => {
    const csv = await goodput(['export', json(), '--format', 'csv', '--raw', raw()]);
    expect(csv.code).toBe(0);
    const rows = csv.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^cell,level,seq,warmup,outcome,.*ttft_ms,.*slo_met,slo_missed,adapter$/);
    expect(rows).toHaveLength(1 + 10);
    const out = join(dir, 'records.jsonl');
    expect((await goodput(['export', json(), '--format', 'jsonl', '--raw', raw(), '--out', out])).code).toBe(0);
    const first = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] as string);
    expect(first).toMatchObject({ cell: 0, warmup: true, outcome: 'ok', slo_met: true });
    expect(first.chunk_ms).toHaveLength(16);
    const col = JSON.parse((await goodput(['export', json(), '--format', 'parquet-free-json', '--raw', raw()])).stdout);
    expect(col).toMatchObject({ format: 'goodput-columnar-v1', rows: 10 });
    expect(col.data.ttft_ms).toHaveLength(10);
    expect(col.columns.find((c: { name: string }) => c.name === 'e2e_ms')).toMatchObject({ type: 'float', unit: 'ms' });
    const md = await goodput(['export', json(), '--format', 'markdown']);
    expect(md.stdout).toMatch(/\| cell \| load \| requests \|/);
    expect(md.stdout).toMatch(/\| 0 \| 2 streams \| 4 \| 0 \|/);
  });

  it('export refuses what it cannot do, naming it, and writes nothing', async () => {
    const out = join(dir, 'never.csv');
    const cases: Array<[string[], RegExp]> = [
      [['--format', 'parquet'], /--format: 'parquet' is not one of jsonl, csv, parquet-free-json, markdown/],
      [['--format', 'csv', '--raw', join(dir, 'nope.jsonl')], /nope\.jsonl: cannot read \(ENOENT\)/],
    ];
    for (const [args, message] of cases) {
      const r = await goodput(['export', json(), ...args, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // A run's result carries its records, so --format csv needs no --raw: one row per measured request.
    const embedded = join(dir, 'embedded.csv');
    const fromResult = await goodput(['export', json(), '--format', 'csv', '--out', embedded]);
    expect(fromResult.code, fromResult.stderr).toBe(0);
    const viaRaw = join(dir, 'via-raw.csv');
    expect((await goodput(['export', json(), '--format', 'csv', '--raw', raw(), '--out', viaRaw])).code).toBe(0);
    expect(readFileSync(embedded, 'utf8')).toBe(readFileSync(viaRaw, 'utf8'));
    expect(readFileSync(embedded, 'utf8').trim().split('\n').length).toBeGreaterThan(1);
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, readFileSync(raw(), 'utf8').split('\n').slice(0, 3).join('\n'));
    const mismatched = await goodput(['export', json(), '--format', 'csv', '--raw', other, '--out', out]);
    expect(mismatched.stderr).toMatch(/does not belong to .*: it holds 2 measured requests, the result counts 8/);
    const garbled = join(dir, 'garbled.jsonl');
    writeFileSync(garbled, '{"seq": 1}\n');
    expect((await goodput(['export', json(), '--format', 'csv', '--raw', garbled, '--out', out])).stderr).toMatch(/garbled\.jsonl:1: not a request record: /);
    expect(existsSync(out)).toBe(false);
  });

  it('--save stores a one-cell run with its contract, so a receipt can name stored runs; a matrix is refused before it runs', async () => {
    const data = join(dir, 'store');
    const file = writeContract(contract());
    // Two configurations (a receipt refuses one server compared with itself): the second decodes at half the speed.
    const other = await startSimulator({ port: 0, prefillBaseMs: 3, prefillMsPerToken: 0.01, decodeStepMs: 2, decodeMsPerExtraSeq: 0 });
    try {
      for (const url of [sim.url, other.url]) {
        const r = await goodput(['run', file, '--data', data, '--url', url]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toMatch(/stored as run \d+ \(complete\)/);
      }
    } finally {
      await other.close();
    }
    const out = join(dir, 'stored-receipt.json');
    const receipt = await goodput([
      'receipt',
      'create',
      '--baseline',
      '1',
      '--optimized',
      '2',
      '--method',
      'a slower decode step',
      '--data',
      data,
      '--out',
      out,
      '--allow-server-disagreement',
    ]);
    expect(receipt.code, receipt.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).configurations.baseline.contractHash).toMatch(/^[0-9a-f]{64}$/);
    const matrix = writeContract(
      contract((c) => {
        c.workload.prompts.tokens = [40, 24];
      }),
    );
    const refused = await goodput(['run', matrix, '--data', data, '--save']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--save: this contract is a matrix of 2 cells, which is not one stored run/);
    expect(refused.stderr).not.toMatch(/level c=/);
  });

  it('--quality-baseline scores the run against a second server in the same invocation; an unreachable baseline keeps the runs, says why, exits 7', async () => {
    const second = await startSimulator({
      port: 0,
      prefillBaseMs: 3,
      prefillMsPerToken: 0.01,
      decodeStepMs: 1,
      decodeMsPerExtraSeq: 0,
      quantizationNoise: 0.1,
    });
    try {
      const file = join(dir, 'in-run.json');
      const r = await goodput(['run', writeContract(contract()), '--quality-baseline', second.url, '--json', file]);
      expect(r.stderr).not.toMatch(/no quality score|goodput: /);
      // The score is shown after the run, with its evaluator and scale, and what it was measured against.
      expect(r.stdout).toMatch(
        new RegExp(
          `^quality [01]\\.\\d+ \\(goodput-quality-v1; 1\\.0 = no detected degradation on this composite under the disclosed workload\\); measured in this run against ${second.url}$`,
          'm',
        ),
      );
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
      expect(result.quality?.runs).toEqual({ baseline: null, candidate: `records:${result.recordsSha256}` });
      expect(result.quality?.evidence?.firstToken.length).toBe(result.quality?.n);
      expect(result.quality?.compared?.candidate.account).toEqual(result.serverAccount);
      // The hash records that the score is measured in the run, not where.
      const plain = await goodput(['run', writeContract(contract()), '--json', join(dir, 'plain.json')]);
      expect(plain.code).toBe(0);
      expect(sweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'plain.json'), 'utf8'))).contractHash).not.toBe(result.contractHash);
    } finally {
      await second.close();
    }
    const kept = join(dir, 'in-run-unreachable.json');
    const r = await goodput([
      'run',
      writeContract(
        contract((c) => {
          c.quality = { metric: 'goodput-quality-v1', baselineUrl: 'http://127.0.0.1:1' };
        }),
      ),
      '--json',
      kept,
    ]);
    // Measured and written, but a step after measuring failed: not "bad input, nothing written" (2).
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/no quality score \(the runs are kept without one, and a receipt refuses them\): baseline: /);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(kept, 'utf8')));
    expect(result.quality).toBeUndefined();
    expect(result.levels.length).toBe(2);
  });

  it('a matrix: one table of every cell and level, per-cell curves, and warm cells served from the cache', async () => {
    const file = writeContract(
      contract((c) => {
        c.workload.prompts.tokens = [40, 24];
        c.workload.cache = [{ kind: 'cold' }, { kind: 'warm', sharedPrefixTokens: 16 }];
        c.load.levels = [1];
        c.workload.requestsPerLevel = 2;
      }),
    );
    const r = await goodput(['run', file, '--json', '-']);
    expect(r.code).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(r.stdout));
    const m = result.matrix;
    expect(m?.cells.map((c) => `${c.key.promptTokens}/${c.key.cache}`)).toEqual(['24/cold', '24/warm', '40/cold', '40/warm']);
    expect(m?.table.rows).toHaveLength(4);
    expect(m?.order).toMatch(/^prompt length ascending/);
    // The simulator caches whole 16-token blocks: the warm cells' 16-token prefix, and nothing of a cold one.
    expect(m?.cells.map((c) => c.levels[0]?.cachedPromptTokens?.mean)).toEqual([0, 16, 0, 16]);
    const text = await goodput(['run', file]);
    expect(text.stdout).toMatch(/Matrix \(prompt length ascending/);
    expect(text.stdout).toMatch(/cell 3 synthetic 40 tokens · 16 out · warm \(16 shared\): 1→/);
  });
});

describe('a trace contract', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const traced = (over: (c: Record<string, any>) => void = () => {}) =>
    contract((c) => {
      c.workload = { prompts: { kind: 'trace' }, outputTokens: 'trace', warmup: 0 };
      c.load = { pattern: { kind: 'trace', path: 'trace.jsonl', blockTokens: 16 }, levels: [1, 4] };
      over(c);
    });
  const writeTrace = (lengths: number[]) =>
    writeFileSync(
      join(dir, 'trace.jsonl'),
      lengths.map((p, i) => JSON.stringify({ timestamp: i * 30, input_length: p, output_length: 8, hash_ids: [1, 2, 100 + i] })).join('\n'),
    );

  it('replays its trace at each speed, pins the trace sha256, and a rerun of a changed trace is refused', async () => {
    writeTrace([40, 48, 36, 44, 40, 50]);
    const json = join(dir, 'trace-run.json');
    const raw = join(dir, 'trace-run.jsonl');
    const r = await goodput(['run', writeContract(traced()), '--json', json, '--raw', raw]);
    expect(r.code).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.levels.map((l) => l.load?.label)).toEqual(['trace trace.jsonl at 1×', 'trace trace.jsonl at 4×']);
    expect((result.contract as { load: { pattern: { sha256: string } } }).load.pattern.sha256).toBe(sha256Hex(readFileSync(join(dir, 'trace.jsonl'))));
    const lines = readFileSync(raw, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { promptTokens: number; concurrency: number });
    expect(lines.filter((l) => l.concurrency === 1).map((l) => l.promptTokens)).toEqual([40, 48, 36, 44, 40, 50]);
    writeTrace([40, 48, 36, 44, 40, 51]);
    const again = await goodput(['rerun', json, '--json', join(dir, 'trace-rerun.json')]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/load\.pattern\.sha256: .*trace\.jsonl has sha256 [0-9a-f]{64}, but the contract records [0-9a-f]{64}: the content changed/);
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const bad: Array<[string, (c: Record<string, any>) => void, RegExp]> = [
    [
      'warm-ups before a replay',
      (c) => {
        c.workload.warmup = 1;
      },
      /workload\.warmup: a trace replay runs no warm-ups/,
    ],
    [
      'synthetic prompts with a trace',
      (c) => {
        c.workload.prompts = { kind: 'synthetic', tokens: 24 };
      },
      /workload\.prompts\.kind: a trace pattern takes its prompts from the trace: kind trace/,
    ],
    [
      'a fixed output with a trace',
      (c) => {
        c.workload.outputTokens = 16;
      },
      /workload\.outputTokens: a trace pattern takes each output length from the trace/,
    ],
    [
      'a speed out of range',
      (c) => {
        c.load.levels = [2000];
      },
      /load\.levels\[0\]: 2000 is not a speed above 0 and at most 1000/,
    ],
    [
      'a missing trace',
      (c) => {
        c.load.pattern.path = 'none.jsonl';
      },
      /trace .*none\.jsonl: cannot read \(ENOENT\)/,
    ],
  ];
  for (const [what, over, message] of bad) {
    it(`refuses ${what}`, async () => {
      writeTrace([40, 48]);
      const r = await goodput(['run', writeContract(traced(over)), '--json', join(dir, `trace-bad-${n}.json`)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    });
  }
});

describe('an agent-trace contract', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const agentContract = (deadlineMs: number, over: (c: Record<string, any>) => void = () => {}) =>
    contract((c) => {
      c.workload = { prompts: { kind: 'trace' }, outputTokens: 'trace', warmup: 0 };
      c.load = { pattern: { kind: 'trace', path: 'agents.jsonl' }, levels: [4] };
      c.slo = { ...c.slo, jobDeadlineMs: deadlineMs };
      over(c);
    });
  const writeAgents = () =>
    writeFileSync(
      join(dir, 'agents.jsonl'),
      [
        { goodput: 'agents', block_tokens: 8 },
        {
          agent: 'a',
          t: 0,
          turns: [
            { in: 24, out: 4 },
            { in: 40, out: 4, wait: 0.02 },
          ],
        },
        { agent: 'a.sub', parent: 'a', after: 1, delay: 0.01, turns: [{ in: 16, out: 4 }] },
        { agent: 'b', t: 0.04, turns: [{ in: 24, out: 4 }] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );

  it('replays the graph and holds each job to slo.jobDeadlineMs', async () => {
    writeAgents();
    const json = (name: string) => join(dir, `agents-${name}.json`);
    const loose = await goodput(['run', writeContract(agentContract(60_000)), '--json', json('loose')]);
    expect(loose.code).toBe(0);
    const ok = sweepResultSchema.parse(JSON.parse(readFileSync(json('loose'), 'utf8')));
    expect(ok.levels[0]?.agents?.jobs).toMatchObject({ count: 2, met: 2, deadlineMs: 60_000 });
    expect(ok.levels[0]?.agents?.sessions).toMatchObject({ count: 3, met: 3 });
    // No job of two turns and a sub-agent ends within a millisecond: every job misses, every session still meets.
    const tight = await goodput(['run', writeContract(agentContract(1)), '--json', json('tight')]);
    const missed = sweepResultSchema.parse(JSON.parse(readFileSync(json('tight'), 'utf8')));
    expect(tight.code).toBe(0);
    expect(missed.levels[0]?.agents?.jobs).toMatchObject({ count: 2, met: 0, deadlineMs: 1 });
    expect(missed.levels[0]?.agents?.sessions.met).toBe(3);
    expect(tight.stdout).toMatch(/jobs met 0 of 2/);
  });

  it('refuses a window on an agent trace', async () => {
    writeAgents();
    const r = await goodput([
      'run',
      writeContract(
        agentContract(1000, (c) => {
          c.load.pattern.window = { startS: 0, endS: 1 };
        }),
      ),
      '--json',
      join(dir, 'agents-window.json'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/load\.pattern\.window: .*agents\.jsonl is an agent trace, replayed whole along its own graph/);
  });
});

describe('bad contracts: a clear message naming the field, exit code 2, nothing written', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const cases: Array<[string, (c: Record<string, any>) => void, RegExp]> = [
    [
      'an unknown arrival kind',
      (c) => {
        c.load.pattern = { kind: 'gamma' };
      },
      /load\.pattern\.kind: kind must be one of concurrency, rate, burst, trace/,
    ],
    [
      'a bad SLO',
      (c) => {
        c.slo.tpotMs = { p: 50, max: 0 };
      },
      /slo\.tpotMs\.max: max must be a positive number of ms/,
    ],
    [
      'an unreadable corpus',
      (c) => {
        c.workload.prompts = { kind: 'jsonl', path: 'missing.jsonl' };
      },
      /corpus .*missing\.jsonl: cannot read \(ENOENT\)/,
    ],
    [
      'a corpus whose content changed',
      (c) => {
        writeFileSync(join(dir, 'p.jsonl'), '{"prompt": "hello there"}\n');
        c.workload.prompts = { kind: 'jsonl', path: 'p.jsonl', sha256: '0'.repeat(64) };
      },
      /workload\.prompts\.sha256: .*p\.jsonl has sha256 [0-9a-f]{64}, but the contract records 0{64}/,
    ],
    [
      'a model the server does not serve',
      (c) => {
        c.model.name = 'other-model';
      },
      /Model "other-model" is not served/,
    ],
  ];
  for (const [what, over, message] of cases) {
    it(`refuses ${what}`, async () => {
      const json = join(dir, `bad-${n}.json`);
      const raw = join(dir, `bad-${n}.jsonl`);
      const r = await goodput(['run', writeContract(contract(over)), '--json', json, '--raw', raw]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(json)).toBe(false);
      expect(existsSync(raw)).toBe(false);
    });
  }
  it('rerun refuses a result without a contract', async () => {
    const json = join(dir, 'sweep.json');
    await goodput(['sweep', '--url', sim.url, '--levels', '1', '--requests-per-level', '2', '--output-tokens', '8', '--prompt-tokens', '8', '--json', json]);
    const r = await goodput(['rerun', json]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has no contract \(it was not written by goodput run\)/);
  });
  it('capacity refuses a matrix of more than one cell', async () => {
    const r = await goodput([
      'capacity',
      writeContract(
        contract((c) => {
          c.workload.outputTokens = [8, 16];
        }),
      ),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/matrix has 2 cells/);
  });
});
