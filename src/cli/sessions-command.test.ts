/**
 * goodput sessions as a user runs it, against the simulator in its own process:
 * a ShareGPT-style file with 3–8 turns per conversation (written by the test),
 * where turn k's prompt is exactly the previous turn's prompt plus the model's
 * answer plus the new message, and the prefix cache finds more of it at every
 * turn; synthetic sessions started at a rate; bad input refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestRecord, mulberry32, sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { COMMON_WORDS } from '../workload/index.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-sessions-'));
const rand = mulberry32(11);
const text = (n: number) => Array.from({ length: n }, () => COMMON_WORDS[Math.floor(rand() * COMMON_WORDS.length)]).join(' ');

/** Six conversations of 3 to 8 turns; the first opens with a system message, one has a trailing unanswered message. */
const conversations = Array.from({ length: 6 }, (_, i) => {
  const turns = 3 + i;
  const msgs = Array.from({ length: turns }, () => [
    { from: 'human', value: text(10 + Math.floor(rand() * 30)) },
    { from: 'gpt', value: text(8 + Math.floor(rand() * 24)) },
  ]).flat();
  if (i === 0) msgs.unshift({ from: 'system', value: 'be brief' });
  if (i === 1) msgs.push({ from: 'human', value: 'no answer follows' });
  return { id: `c${i}`, conversations: msgs };
});

beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--prefill-ms-per-token', '0.01', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0']);
});
afterAll(async () => {
  await sim?.stop();
});

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RequestRecord);

describe('goodput sessions', () => {
  it(
    'sends each turn with the conversation so far: prompts grow by exactly the answer and the new message, cache hits rise',
    async () => {
      const file = join(dir, 'sharegpt.json');
      writeFileSync(file, JSON.stringify(conversations));
      const raw = join(dir, 'sessions.jsonl');
      const json = join(dir, 'sessions.json');
      const r = await runGoodput(
        ['sessions', '--url', sim.url, '--conversations', file, '--levels', '3', '--think-s', '0..0.05', '--raw', raw, '--json', json, '--no-save'],
        {},
        120_000,
      );
      expect(r.code).toBe(0);
      // The header says what was sent: each answer's own cap, never the sweep's default 256.
      expect(r.stdout.split('\n')[0]).toMatch(/ · multi-turn sessions, each answer capped at its own length \(\d+(–\d+)? output tokens\) · /);
      expect(r.stdout).not.toContain('256 output tokens');
      const recs = records(raw);
      expect(recs).toHaveLength(3 + 4 + 5 + 6 + 7 + 8);
      const bySession = new Map<number, RequestRecord[]>();
      for (const x of recs) bySession.set(x.session?.id ?? -1, [...(bySession.get(x.session?.id ?? -1) ?? []), x]);
      expect([...bySession.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
      for (const [id, rs] of bySession) {
        rs.sort((a, b) => (a.session?.turn ?? 0) - (b.session?.turn ?? 0));
        const humans = conversations[id]?.conversations.filter((m, j, all) => m.from === 'human' && all[j + 1]?.from === 'gpt') ?? [];
        expect(rs.map((x) => x.session?.turn)).toEqual(humans.map((_, k) => k));
        expect(rs[0]?.promptTokens).toBe(humans[0]?.value.split(' ').length);
        for (let k = 1; k < rs.length; k++) {
          const prev = rs[k - 1] as RequestRecord;
          expect(rs[k]?.promptTokens, `session ${id} turn ${k + 1}`).toBe(
            (prev.promptTokens ?? 0) + prev.outputTokens + (humans[k]?.value.split(' ').length ?? 0),
          );
        }
        // The recorded answer's length is the turn's output cap.
        const answers = conversations[id]?.conversations.filter((m, j, all) => m.from === 'gpt' && all[j - 1]?.from === 'human') ?? [];
        expect(rs.map((x) => x.outputTokens)).toEqual(answers.map((a) => a.value.split(' ').length));
      }
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      const s = result.levels[0]?.sessions;
      expect(s).toMatchObject({ sessions: 6, completed: 6 });
      const cached = (s?.turns ?? []).map((t) => t.cachedPromptTokensMean ?? 0);
      expect(cached[0]).toBe(0);
      for (let k = 1; k < 4; k++) expect(cached[k], `turn ${k + 1}`).toBeGreaterThan(cached[k - 1] as number);
      expect(r.stdout).toMatch(/Sessions at 3 sessions at once: 6 of 6 completed every turn/);
      expect(r.stdout).toMatch(/\n +1 +6 +[\d.]+\/[\d.]+ +[\d.]+\/[\d.]+ +\d+ +0 +\d+\n/);
      expect(r.stderr).toMatch(/level 3 sessions at once: 33 requests, 0 failed/);
      expect(r.stderr).not.toMatch(/skipped/);
    },
    patient(150_000),
  );

  it(
    'starts synthetic sessions at a rate',
    async () => {
      const json = join(dir, 'rate.json');
      const r = await runGoodput(
        [
          'sessions',
          '--url',
          sim.url,
          '--session-rate',
          '--levels',
          '20',
          '--sessions',
          '5',
          '--turns',
          '2..3',
          '--user-tokens',
          '8..16',
          '--answer-tokens',
          '8',
          '--think-s',
          '0',
          '--json',
          json,
          '--no-save',
        ],
        {},
        120_000,
      );
      expect(r.code).toBe(0);
      const level = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8'))).levels[0];
      expect(level?.load?.label).toBe('20 sessions/s poisson');
      expect(level?.sessions?.completed).toBe(5);
      expect(level?.sessions?.turns.map((t) => t.turn)).toEqual(level?.sessions?.turns.length === 3 ? [1, 2, 3] : [1, 2]);
    },
    patient(120_000),
  );

  const bad: Array<[string, string[], RegExp]> = [
    ['--output-tokens, which each turn sets', ['--output-tokens', '64'], /--output-tokens: each turn's output cap comes from its conversation/],
    ['a bad range', ['--turns', '8..3'], /--turns: '8\.\.3' is not a range A\.\.B of whole numbers from 1 to 64/],
    ['the completions endpoint', ['--endpoint', 'completions'], /endpoint: sessions are conversations: they need the chat or responses endpoint/],
    ['a conversations file that is not JSON', ['--conversations', 'NOTJSON'], /conversations .*: not JSON$/m],
    ['a conversations file without answers', ['--conversations', 'NOANSWER'], /: no conversation has a human message followed by an answer$/m],
  ];
  for (const [what, flags, message] of bad) {
    it(
      `refuses ${what} (exit 2)`,
      async () => {
        const notJson = join(dir, 'bad.json');
        writeFileSync(notJson, '{oops');
        const noAnswer = join(dir, 'noanswer.json');
        writeFileSync(noAnswer, JSON.stringify([{ conversations: [{ from: 'human', value: 'hi' }] }]));
        const args = flags.map((f) => (f === 'NOTJSON' ? notJson : f === 'NOANSWER' ? noAnswer : f));
        const r = await runGoodput(['sessions', '--url', sim.url, '--no-save', ...args]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
      },
      patient(60_000),
    );
  }
});
