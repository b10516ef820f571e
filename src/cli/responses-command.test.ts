/**
 * The Responses API as a user runs it, against the simulator in its own process: the same sessions
 * through chat (history resent) and responses (previous_response_id) with --compare-endpoints — both
 * complete, what chat sends grows turn by turn and what responses sends does not — and a sweep on
 * --endpoint responses; an engine without the API is refused before anything is sent.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-responses-'));
beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--prefill-ms-per-token', '0', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('goodput sessions --compare-endpoints', () => {
  it('both complete; bytes sent grow in chat and stay flat in responses; the comparison is printed', async () => {
    const r = await runGoodput(
      [
        'sessions',
        '--url',
        sim.url,
        '--compare-endpoints',
        '--levels',
        '2',
        '--sessions',
        '4',
        '--turns',
        '4..4',
        '--user-tokens',
        '16..16',
        '--answer-tokens',
        '24..24',
        '--think-s',
        '0..0',
        '--no-save',
      ],
      {},
      120_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const table = r.stdout.slice(r.stdout.indexOf('Chat vs Responses'));
    expect(table).toMatch(/Chat vs Responses at 2 sessions at once: 4 and 4 of 4 sessions completed every turn/);
    const rows = table
      .split('\n')
      .filter((l) => /^\s+\d+\s+\d+\/\d+/.test(l))
      .map((l) => l.trim().split(/\s+/));
    expect(rows).toHaveLength(4);
    const pair = (cell: string | undefined) => (cell ?? '').split('/').map(Number) as [number, number];
    const sent = rows.map((row) => pair(row[1]));
    const prompts = rows.map((row) => pair(row[2]));
    for (let k = 1; k < 4; k++) {
      // Chat resends the previous turn's message and answer: about 16 + 24 more words every turn.
      expect(sent[k]?.[0]).toBeGreaterThan((sent[k - 1]?.[0] ?? 0) + 100);
      // Responses sends only the new message and the previous id: flat but for the new message's own length
      // (16 tokens of words drawn per run, a few bytes either way), never by what chat adds each turn.
      const chatGrowth = (sent[k]?.[0] ?? 0) - (sent[1]?.[0] ?? 0);
      expect(Math.abs((sent[k]?.[1] ?? 0) - (sent[1]?.[1] ?? 0))).toBeLessThan(Math.max(16, chatGrowth / 10));
      // Both servers count the whole conversation as prompt: 16 + k × (24 + 16) tokens.
      expect(prompts[k]).toEqual([16 + k * 40, 16 + k * 40]);
    }
    expect(sent[3]?.[0]).toBeGreaterThan(2 * (sent[3]?.[1] ?? 0));
  });

  it('with llama.cpp, which keeps no answers, the Responses turns resend the conversation as chat does', async () => {
    const r = await runGoodput(
      [
        'sessions',
        '--url',
        sim.url,
        '--engine',
        'llamacpp',
        '--compare-endpoints',
        '--levels',
        '1',
        '--sessions',
        '2',
        '--turns',
        '3..3',
        '--user-tokens',
        '16..16',
        '--answer-tokens',
        '24..24',
        '--think-s',
        '0..0',
        '--no-save',
      ],
      {},
      120_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const table = r.stdout.slice(r.stdout.indexOf('Chat vs Responses'));
    expect(table).toMatch(/Chat vs Responses at 1 session at once: 2 and 2 of 2 sessions completed every turn/);
    const sent = table
      .split('\n')
      .filter((l) => /^\s+\d+\s+\d+\/\d+/.test(l))
      .map((l) => (l.trim().split(/\s+/)[1] ?? '').split('/').map(Number));
    expect(sent).toHaveLength(3);
    for (let k = 1; k < 3; k++) expect(sent[k]?.[1]).toBeGreaterThan((sent[k - 1]?.[1] ?? 0) + 100);
  });

  it('refuses --json with the comparison, and the responses endpoint on an engine without it: exit 2, nothing written', async () => {
    const json = join(dir, 'x.json');
    const both = await runGoodput(['sessions', '--url', sim.url, '--compare-endpoints', '--levels', '1', '--sessions', '1', '--json', json, '--no-save']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--compare-endpoints: runs two sweeps/);
    const tgi = await runGoodput(['sweep', '--url', sim.url, '--endpoint', 'responses', '--engine', 'tgi', '--levels', '1', '--json', json, '--no-save']);
    expect(tgi.code).toBe(2);
    expect(tgi.stderr).toMatch(/endpoint responses: TGI has no Responses API \(\/v1\/responses\); use --endpoint chat/);
    expect(existsSync(json)).toBe(false);
  });
});

describe('goodput sweep --endpoint responses', () => {
  it('measures the Responses stream with the usual figures', async () => {
    const json = join(dir, 'sweep.json');
    const r = await runGoodput(
      [
        'sweep',
        '--url',
        sim.url,
        '--endpoint',
        'responses',
        '--levels',
        '2',
        '--requests-per-level',
        '8',
        '--output-tokens',
        '32',
        '--json',
        json,
        '--no-save',
      ],
      {},
      120_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.run.endpoint).toBe('responses');
    expect(result.warnings.map((w) => w.code)).toContain('cannot-force-length');
    const level = result.levels[0];
    expect(level).toMatchObject({ requests: 8, failed: 0, outputTokens: { source: 'usage' } });
    expect(level?.ttftMs?.p50).toBeGreaterThan(0);
  });
});
