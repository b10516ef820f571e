/**
 * `goodput quality` as a user runs it: a real process against two simulators
 * over loopback; bad input exits 2 with a clear message and writes nothing.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGoodput } from '../test-support/goodput-process.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUALITY_EVALUATOR, QUALITY_SCALE_NOTE } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { closedPort } from '../test-support/scripted-server.js';
import type { QualityRun } from '../quality/index.js';
import { renderQualityRun, wrapLine } from './quality-command.js';
import { patient } from '../test-support/patience.js';

const goodput = (args: string[], env: NodeJS.ProcessEnv = {}) => runGoodput(['quality', ...args], env, 60_000);

const fast = { prefillBaseMs: 0, prefillMsPerToken: 0, decodeStepMs: 0.2, decodeMsPerExtraSeq: 0 };
let baseline: SimServer;
let candidate: SimServer;
let dir: string;
beforeAll(async () => {
  [baseline, candidate] = await Promise.all([startSimulator(fast), startSimulator({ ...fast, quantizationNoise: 0.2 })]);
  dir = mkdtempSync(join(tmpdir(), 'goodput-quality-'));
});
afterAll(async () => {
  await Promise.all([baseline.close(), candidate.close()]);
});

describe('bad input: a clear message, exit code 2, nothing written', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['a baseline that is not a URL', ['--baseline', 'not a url', '--candidate', 'http://127.0.0.1:1'], /--baseline: 'not a url' is not a URL/],
    [
      'a candidate that is not http',
      ['--baseline', 'http://127.0.0.1:1', '--candidate', 'ftp://127.0.0.1:1'],
      /--candidate: 'ftp:\/\/127\.0\.0\.1:1' must use http or https/,
    ],
    ['a missing --candidate', ['--baseline', 'http://127.0.0.1:1'], /required option '--candidate <url>'/],
    ['an unknown endpoint', ['--baseline', 'http://127.0.0.1:1', '--candidate', 'http://127.0.0.1:1', '--endpoint', 'responses'], /--endpoint.*responses/],
    [
      'a zero timeout',
      ['--baseline', 'http://127.0.0.1:1', '--candidate', 'http://127.0.0.1:1', '--timeout-s', '0'],
      /--timeout-s: '0' must be greater than 0/,
    ],
    ['an empty model', ['--baseline', 'http://127.0.0.1:1', '--candidate', 'http://127.0.0.1:1', '--model', ''], /--model: must not be empty/],
    [
      'one run named without the other',
      ['--baseline', 'http://127.0.0.1:1', '--candidate', 'http://127.0.0.1:1', '--baseline-run', 'b.json'],
      /--candidate-run: is needed too: a score names both runs it belongs to/,
    ],
    [
      'a run that is not a result file',
      [
        '--baseline',
        'http://127.0.0.1:1',
        '--candidate',
        'http://127.0.0.1:1',
        '--baseline-run',
        '/nonexistent/b.json',
        '--candidate-run',
        '/nonexistent/o.json',
      ],
      /--baseline-run: .*b\.json does not exist/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what}`, async () => {
      const json = join(dir, `bad-${what.replace(/\W+/g, '-')}.json`);
      const r = await goodput([...args, '--json', json]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(json)).toBe(false);
    });
  }

  it('refuses a server that does not answer, naming it', async () => {
    const port = await closedPort();
    const json = join(dir, 'unreachable.json');
    const r = await goodput(['--baseline', baseline.url, '--candidate', `http://127.0.0.1:${port}`, '--json', json]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`goodput: no quality score: candidate: http://127\\.0\\.0\\.1:${port}/v1/models could not be reached`));
    expect(existsSync(json)).toBe(false);
  });
});

describe('goodput quality', () => {
  it('prints the score beside the evaluator and the scale note, and writes the JSON; the key is never shown', async () => {
    const json = join(dir, 'quality.json');
    const key = 'sk-never-printed-42';
    const r = await goodput(['--baseline', baseline.url, '--candidate', candidate.url, '--json', json], { GOODPUT_API_KEY: key });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Baseline: {2}http:\/\/127\.0\.0\.1:\d+ \(goodput-sim-1\)\nCandidate: http:/);
    expect(r.stdout).toMatch(/Quality score: 0\.9\d{3} \(derived/);
    expect(r.stdout).toContain(`evaluator: ${QUALITY_EVALUATOR}`);
    expect(r.stdout).toContain(`scale: ${QUALITY_SCALE_NOTE}`);
    const written = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({ evaluator: QUALITY_EVALUATOR, scaleNote: QUALITY_SCALE_NOTE, topLogprobs: 20, n: 32 });
    expect(written.composite).toBeLessThan(1);
    expect(r.stdout + readFileSync(json, 'utf8')).not.toContain(key);
  });

  it('names the perplexity method that was used: echo here, prefix scoring when the score says so', async () => {
    const json = join(dir, 'quality-method.json');
    const r = await goodput(['--baseline', baseline.url, '--candidate', candidate.url, '--json', json]);
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(json, 'utf8')) as QualityRun;
    expect(written.components.pplDelta).toMatchObject({ method: 'prompt-logprobs' });
    expect(r.stdout).toContain("perplexity: /v1/completions with echo (the prompt's own logprobs)");
    const byPrefix = {
      ...written,
      components: { ...written.components, pplDelta: { ...written.components.pplDelta, method: 'prefix-scoring' } },
    } as QualityRun;
    expect(renderQualityRun(byPrefix)).toContain("perplexity: /v1/completions, scored by prefix (the next token's logprob after each prefix)");
    expect(renderQualityRun(byPrefix)).not.toContain('with echo');
  });

  it('on a terminal folds the evaluator definition to its width; in a pipe it stays one line', async () => {
    const json = join(dir, 'quality-wrap.json');
    const r = await goodput(['--baseline', baseline.url, '--candidate', candidate.url, '--json', json]);
    expect(r.code).toBe(0);
    const run = JSON.parse(readFileSync(json, 'utf8')) as QualityRun;
    expect(QUALITY_EVALUATOR.length).toBeGreaterThan(80);
    for (const columns of [80, 120]) {
      const lines = renderQualityRun(run, columns).split('\n');
      expect(
        lines.filter((l) => l.length > columns),
        `at ${columns} columns`,
      ).toEqual([]);
      // The definition is all there, word for word: its lines rejoined give it back.
      const start = lines.findIndex((l) => l.startsWith('  evaluator: '));
      const end = lines.findIndex((l, i) => i > start && !l.startsWith('    '));
      expect(
        lines
          .slice(start, end)
          .map((l) => l.trim())
          .join(' '),
      ).toBe(`evaluator: ${QUALITY_EVALUATOR}`);
      expect(end - start).toBeGreaterThan(1);
    }
    // Not a terminal (the process above): one line each, as grep wants.
    expect(r.stdout.split('\n')).toContain(`  evaluator: ${QUALITY_EVALUATOR}`);
    expect(renderQualityRun(run)).toBe(r.stdout.trimEnd());
  });

  it('folds at spaces, keeps a word longer than the width whole, and never below 40 columns', () => {
    const long = 'x'.repeat(50);
    expect(wrapLine(`  key: a b ${long} c`, 40)).toEqual(['  key: a b', `    ${long}`, '    c']);
    expect(wrapLine('short', 10)).toEqual(['short']);
    expect(wrapLine(Array.from({ length: 20 }, () => 'word').join(' '), 5).every((l) => l.length <= 40)).toBe(true);
  });

  it('--json - writes only the JSON to stdout', async () => {
    const r = await goodput(['--baseline', baseline.url, '--candidate', baseline.url, '--json', '-']);
    expect(r.code).toBe(0);
    const score = JSON.parse(r.stdout) as { composite: number; scaleNote: string };
    expect(score.composite).toBe(1);
    expect(score.scaleNote).toBe(QUALITY_SCALE_NOTE);
  });
});

describe('the figures docs/quality.md quotes', () => {
  it(
    'are what the documented command prints against two simulators, line for line, and the noise figures it names',
    async () => {
      const doc = readFileSync(new URL('../../docs/quality.md', import.meta.url), 'utf8');
      const quoted = /give exactly these figures[\s\S]*?```sh\n[\s\S]*?```\n\n```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
      const lines = quoted.split('\n').filter((l) => /^(Quality score| {2}first-token KL| {2}perplexity delta| {2}noise| {2}against the baseline)/.test(l));
      expect(lines).toHaveLength(5);
      const r = await goodput(['--baseline', baseline.url, '--candidate', candidate.url]);
      expect(r.code, r.stderr).toBe(0);
      for (const line of lines) expect(r.stdout.split('\n')).toContain(line);
      // The prose's other noise levels, each against a noiseless baseline.
      for (const [noise, score] of [
        [0.1, '0.9969'],
        [0.5, '0.9222'],
      ] as const) {
        expect(doc).toContain(`${noise} gives ${score}`);
        const other = await startSimulator({ ...fast, quantizationNoise: noise });
        try {
          const o = await goodput(['--baseline', baseline.url, '--candidate', other.url]);
          expect(o.stdout).toContain(`Quality score: ${score} `);
        } finally {
          await other.close();
        }
      }
    },
    patient(120_000),
  );
});
