/**
 * Tool calls as a user runs them, against the simulator in its own process (10 % of calls with
 * arguments that miss the schema): `goodput sweep --tools 64 --tool-choice required` reports the
 * parse and validity rates per level and exports every per-request field; a contract's
 * toolCallValid SLO lowers goodput by exactly the invalid calls; bad tool input is one line, exit 2,
 * nothing written.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type RequestRecord, sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { builtinTools } from '../workload/index.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-tools-cli-'));
beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    '2',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '1',
    '--decode-ms-per-extra-seq',
    '0',
    '--tool-call-invalid',
    '0.1',
    '--json-invalid',
    '0.1',
  ]);
});
afterAll(async () => {
  await sim?.stop();
});

/** Runs a sweep with `flags` and expects one clear line on stderr, exit 2, no result written. */
async function expectRefused(flags: string[], message: RegExp): Promise<void> {
  const json = join(dir, 'refused.json');
  const r = await runGoodput(['sweep', '--url', sim.url, '--levels', '1', '--json', json, '--no-save', ...flags]);
  expect(r.code, flags.join(' ')).toBe(2);
  expect(r.stderr).toMatch(message);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(existsSync(json)).toBe(false);
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RequestRecord);

describe('goodput sweep --tools', () => {
  it('64 tools, required: validity 90 % per level, the table lines, the run facts and the raw fields', async () => {
    const json = join(dir, 'sweep.json');
    const raw = join(dir, 'sweep.jsonl');
    const r = await runGoodput(
      [
        'sweep',
        '--url',
        sim.url,
        '--tools',
        '64',
        '--tool-choice',
        'required',
        '--levels',
        '8',
        '--requests-per-level',
        '200',
        '--warmup',
        '0',
        '--json',
        json,
        '--raw',
        raw,
        '--no-save',
      ],
      {},
      120_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.run.tools).toMatchObject({ label: 'built-in 64', count: 64, choice: 'required' });
    expect(result.run.forceLength).toBe(false);
    const t = result.levels[0]?.toolCalls;
    expect(t?.requests).toBe(200);
    expect(t?.parseRate).toBe(1);
    expect(Math.abs((t?.validRate ?? 0) - 0.9)).toBeLessThanOrEqual(0.02);
    expect(r.stdout).toMatch(/Tool calls: 64 tools \(built-in 64\), tool_choice required/);
    expect(r.stdout).toMatch(/valid 1\d\d of 200 \(\d+\.\d %\) · parsed 100\.0 %/);
    const recs = lines(raw);
    expect(recs.filter((x) => x.toolCalls?.verdict === 'invalid').length).toBe(200 - (t?.valid ?? 0));
    expect(recs.every((x) => x.toolCalls?.names.length === 1)).toBe(true);
  });

  it('a tools file with an invalid schema, a tool choice naming no tool, tools on completions: one line, exit 2, nothing written', async () => {
    const bad = join(dir, 'bad-tools.json');
    writeFileSync(bad, JSON.stringify([{ type: 'function', function: { name: 'lookup', parameters: { type: 'objekt' } } }]));
    const big = join(dir, 'many-tools.json');
    writeFileSync(big, JSON.stringify(Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `t${i}` } }))));
    const cases: Array<[string[], RegExp]> = [
      [['--tools', bad], /tools .*bad-tools\.json: tool lookup: parameters is not a valid JSON schema \(schema is invalid: data\/type/],
      [['--tools', big], /many-tools\.json: tools 129 is above the limit of 128 tools offered with one request/],
      [['--tools', '8', '--tool-choice', 'no_such_tool'], /built-in tools 8: tool choice\.name: no tool is named no_such_tool/],
      [['--tool-choice', 'required'], /--tool-choice: needs --tools/],
      [['--tools', '8', '--endpoint', 'completions'], /tools: tools need the chat or responses endpoint/],
      [['--tools', join(dir, 'missing.json')], /missing\.json: cannot read \(ENOENT\)/],
    ];
    for (const [flags, message] of cases) await expectRefused(flags, message);
  });
});

describe('goodput sweep --json-schema', () => {
  const schema = {
    type: 'object',
    required: ['city', 'days'],
    additionalProperties: false,
    properties: { city: { type: 'string', maxLength: 20 }, days: { type: 'integer', minimum: 1, maximum: 14 } },
  };

  it('answers judged against the schema (90 % valid), plain controls interleaved, the cost printed', async () => {
    const file = join(dir, 'trip.json');
    writeFileSync(file, JSON.stringify({ name: 'trip', schema }));
    const json = join(dir, 'schema.json');
    const raw = join(dir, 'schema.jsonl');
    const r = await runGoodput(
      [
        'sweep',
        '--url',
        sim.url,
        '--json-schema',
        file,
        '--levels',
        '4',
        '--requests-per-level',
        '200',
        '--warmup',
        '0',
        '--json',
        json,
        '--raw',
        raw,
        '--no-save',
      ],
      {},
      120_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.run.responseSchema).toMatchObject({ label: 'trip.json', name: 'trip', control: 0.5 });
    const s = result.levels[0]?.structured;
    expect(s).toMatchObject({ requests: 100, controls: 100, unparsed: 0 });
    expect(Math.abs((s?.validRate ?? 0) - 0.9)).toBeLessThanOrEqual(0.02);
    expect(s?.cost.ttftMs?.controlP50).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/Structured output: JSON schema trip\.json \(trip\), 50 % plain controls/);
    expect(r.stdout).toMatch(/cost against 100 plain controls: TTFT p50 \d+\.\d vs \d+\.\d ms \([+-]\d+\.\d %\)/);
    const recs = lines(raw);
    expect(recs.filter((x) => x.structured?.schema === true)).toHaveLength(100);
    expect(recs.filter((x) => x.structured?.verdict === 'invalid').length).toBe(100 - (s?.valid ?? 0));
  });

  it('an invalid schema, an oversized one, a control share out of range: one line, exit 2, nothing written', async () => {
    const bad = join(dir, 'bad-schema.json');
    writeFileSync(bad, JSON.stringify({ type: 'object', properties: { a: { type: 'strng' } } }));
    const big = join(dir, 'big-schema.json');
    writeFileSync(big, JSON.stringify({ type: 'object', description: 'x'.repeat(70_000) }));
    const ok = join(dir, 'ok-schema.json');
    writeFileSync(ok, JSON.stringify(schema));
    const cases: Array<[string[], RegExp]> = [
      [['--json-schema', bad], /JSON schema .*bad-schema\.json: not a valid JSON schema \(schema is invalid/],
      [['--json-schema', big], /big-schema\.json: size \d+ is above the limit of 65536 bytes of the JSON schema/],
      [['--json-schema', ok, '--schema-control', '0.95'], /--schema-control: 0\.95 is above 0\.9/],
      [['--schema-control', '0.2'], /--schema-control: needs --json-schema/],
    ];
    for (const [flags, message] of cases) await expectRefused(flags, message);
  });
});

describe('a contract with tools and the toolCallValid SLO', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const contract = (over: (c: Record<string, any>) => void = () => {}) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const c: Record<string, any> = {
      version: 1,
      server: { url: sim.url },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: {
        prompts: { kind: 'synthetic', tokens: 24 },
        outputTokens: 512,
        requestsPerLevel: 100,
        warmup: 0,
        tools: { kind: 'file', path: 'tools.json', choice: 'required' },
      },
      decoding: { ignoreEos: false },
      load: { levels: [4] },
      slo: { ttftMs: { p: 95, max: 60_000 }, toolCallValid: true },
      hardware: { label: 'SimGPU 80GB' },
    };
    over(c);
    const p = join(dir, `contract-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(p, stringify(c));
    return p;
  };

  it('goodput counts only requests whose calls validate; the file is pinned by its hash', async () => {
    writeFileSync(join(dir, 'tools.json'), JSON.stringify({ tools: builtinTools(8) }));
    const json = join(dir, 'run.json');
    const r = await runGoodput(['run', contract(), '--json', json], {}, 120_000);
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const level = result.levels[0];
    const invalid = level?.toolCalls?.invalid ?? -1;
    expect(invalid).toBeGreaterThan(0);
    expect(level?.goodput?.missed.toolCallValid).toBe(invalid);
    expect(level?.goodput?.met).toBe(100 - invalid);
    expect(level?.goodput?.share).toBeCloseTo((100 - invalid) / 100, 10);
    expect(level?.goodput?.holds).toBe(false);
    expect((result.contract as { workload: { tools: { sha256: string } } }).workload.tools.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('bad contracts: toolCallValid without tools, ignoreEos with tools, a changed tools file', async () => {
    const noTools = await runGoodput([
      'run',
      contract((c) => {
        delete c.workload.tools;
      }),
    ]);
    expect(noTools.code).toBe(2);
    expect(noTools.stderr).toMatch(/slo\.toolCallValid: the toolCallValid SLO needs workload\.tools/);
    const eos = await runGoodput([
      'run',
      contract((c) => {
        c.decoding.ignoreEos = true;
      }),
    ]);
    expect(eos.code).toBe(2);
    expect(eos.stderr).toMatch(/decoding\.ignoreEos: a request with tools ends when its call is complete/);
    const pinned = await runGoodput([
      'run',
      contract((c) => {
        c.workload.tools.sha256 = '0'.repeat(64);
      }),
    ]);
    expect(pinned.code).toBe(2);
    expect(pinned.stderr).toMatch(/workload\.tools\.sha256: .*tools\.json has sha256 [0-9a-f]{64}, but the contract records 0{64}/);
  });
});
