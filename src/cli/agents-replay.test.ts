/**
 * goodput replay of an agent trace as a user runs it, against the simulator in
 * its own process: a synthetic trace of 20 root agents with 1–4 sub-agents each
 * (tool waits scaled down to keep the test short) is sent turn for turn; every
 * sub-agent is scheduled at its parent turn's end plus its delay and every
 * later turn after its wait and its children (from the raw records: the order,
 * not wall-clock accuracy, which is the timing pass's); session and job
 * goodput match a hand count from the raw records, with failures injected;
 * theoretical and reported cache hits are printed. Bad traces are refused in one
 * line naming the file and line, exit 2, nothing stored.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOk } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { replayAgents } from '../test-support/agent-replay.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { agentJobRows, agentLevelRows, num } from '../web/index.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-agents-replay-'));

beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '2', '--prefill-ms-per-token', '0.001', '--decode-step-ms', '2', '--fail-500', '0.04', '--seed', '3']);
});
afterAll(async () => {
  await sim?.stop();
});

describe('goodput replay of an agent trace', () => {
  it(
    'follows the graph, counts session and job goodput as the records do, and prints both cache figures',
    async () => {
      const rep = await replayAgents(mkdtempSync(join(dir, 'run-')), sim.url, [
        '--agents',
        '20',
        '--fan-out',
        '1..4',
        '--tool-wait-s',
        '0.02..0.2',
        '--turns',
        '2..3',
        '--root-gap-s',
        '0..0.05',
        '--out-tokens',
        '4..12',
        '--seed',
        '11',
      ]);
      const { source, records, result, at } = rep;
      // Failed turns make the level invalid (exit 5) yet it is measured and written.
      expect(rep.ran.code).toBe(5);
      expect(rep.ran.stderr).toMatch(/agent trace goodput-agents: 20 jobs, \d+ sub-agents, \d+ turns; sha256 [0-9a-f]{12}…/);
      const level = result.levels[0];
      const agents = level?.agents;
      expect(agents).toBeDefined();
      if (!agents || !level) return;

      // Every sub-agent was meant to leave exactly at its parent turn's end plus its delay, and left no earlier.
      expect(rep.spawns.length).toBeGreaterThanOrEqual(20);
      for (const { child, parent, delayMs } of rep.spawns) {
        expect(Math.abs(child.targetSendNs - ((parent.endNs as number) + delayMs * 1e6))).toBeLessThan(1e-3);
        expect(child.sendNs).toBeGreaterThanOrEqual(child.targetSendNs);
      }
      // Every later turn was held for its tool wait and for every child spawned after the turn before it.
      for (const [id, s] of source.sessions.entries()) {
        for (let k = 1; k < s.turns.length; k++) {
          const r = at(id, k);
          const prev = at(id, k - 1);
          if (!r || !prev) continue;
          const kids = source.sessions.flatMap((c, cid) => (c.parent === id && c.after === k - 1 ? [cid] : []));
          const joined = kids.map((cid) => Math.max(...records.filter((x) => x.session?.id === cid).map((x) => x.endNs ?? 0)));
          expect(Math.abs(r.targetSendNs - Math.max((prev.endNs as number) + (s.turns[k]?.w ?? 0) * 1e6, ...joined))).toBeLessThan(1e-3);
        }
      }

      // The hand count: a session met when every turn it planned is recorded and ok; a job when all its sessions did.
      const sessionMet = source.sessions.map((s, id) =>
        s.turns.every((_, k) => {
          const r = at(id, k);
          return r !== undefined && isOk(r);
        }),
      );
      const jobs = new Map<number, boolean>();
      source.sessions.forEach((s, id) => jobs.set(s.job, (jobs.get(s.job) ?? true) && sessionMet[id] === true));
      const metSessions = sessionMet.filter(Boolean).length;
      const metJobs = [...jobs.values()].filter(Boolean).length;
      expect(
        records.some((r) => !isOk(r)),
        'the simulator injected failures',
      ).toBe(true);
      expect(metSessions).toBeLessThan(source.sessions.length);
      expect(agents.sessions).toMatchObject({ count: source.sessions.length, met: metSessions });
      expect(agents.jobs).toMatchObject({ count: 20, met: metJobs });
      expect(agents.sessions.metPerS).toBeCloseTo(metSessions / ((level.durationMs as number) / 1000), 9);
      expect(agents.jobList.filter((j) => j.met).length).toBe(metJobs);

      expect(agents.cache.theoreticalHitRate).toBeGreaterThan(0.3);
      expect(agents.cache.actualHitRate).toBeGreaterThan(0);
      expect(rep.ran.stdout).toMatch(/sessions met \d+ of \d+ \([\d.]+\/s\) · jobs met \d+ of 20 \([\d.]+\/s\)/);
      expect(rep.ran.stdout).toMatch(/prefix cache: theoretical [\d.]+ % of \d+ prompt tokens · server reported [\d.]+ % \(\d+ requests reporting\)/);
      expect(rep.ran.stdout).toMatch(/job agent1: (met|missed) · makespan/);
      // The page's tables: the same counts, and the first jobs with their paths.
      expect(agentLevelRows(result.levels)[0]?.slice(1, 5)).toEqual([
        `${metSessions} of ${source.sessions.length}`,
        num(agents.sessions.metPerS, 2),
        `${metJobs} of 20`,
        num(agents.jobs.metPerS, 2),
      ]);
      expect(agentJobRows(level).rows.map((r) => r[0])).toEqual(agents.jobList.map((j) => j.job));
    },
    patient(180_000),
  );

  const HEADER = JSON.stringify({ goodput: 'agents', block_tokens: 16 });
  const bad: Array<[string, string[], RegExp]> = [
    [
      'a child that never joins',
      [HEADER, '{"agent":"a","t":0,"turns":[{"in":8,"out":2},{"in":9,"out":2}]}', '{"agent":"b","parent":"a","after":2,"turns":[{"in":8,"out":2}]}'],
      /^goodput: agent trace .*bad\.jsonl: line 3: agent b never joins: it is spawned after a's last turn, and no later turn of a waits for it$/m,
    ],
    [
      'a cycle in the agent graph',
      [
        HEADER,
        '{"agent":"a","parent":"b","after":1,"turns":[{"in":8,"out":2},{"in":9,"out":2}]}',
        '{"agent":"b","parent":"a","after":1,"turns":[{"in":8,"out":2},{"in":9,"out":2}]}',
      ],
      /^goodput: agent trace .*bad\.jsonl: line 2: the agents a → b → a form a cycle: none of them is started by a root$/m,
    ],
    [
      'a turn longer than the declared context',
      [JSON.stringify({ goodput: 'agents', context: 64 }), '{"agent":"a","t":0,"turns":[{"in":60,"out":8}]}'],
      /^goodput: agent trace .*bad\.jsonl: line 2: agent a turn 1 needs 60 prompt plus 8 output tokens \(68\), longer than the trace's declared context of 64 tokens$/m,
    ],
    [
      "a turn longer than the server's context",
      [HEADER, '{"agent":"a","t":0,"turns":[{"in":8,"out":2}]}', '{"agent":"b","t":0,"turns":[{"in":8,"out":2},{"in":40000,"out":2}]}'],
      /^goodput: agent trace bad\.jsonl: line 3: agent b turn 2 needs 40000 prompt plus 2 output tokens \(40002\), beyond http:\/\/127\.0\.0\.1:\d+'s context of 32768 tokens/m,
    ],
  ];
  for (const [what, lines, message] of bad) {
    it(
      `refuses ${what}: one line, exit 2, nothing stored or written`,
      async () => {
        const trace = join(mkdtempSync(join(dir, 'bad-')), 'bad.jsonl');
        writeFileSync(trace, lines.join('\n') + '\n');
        const home = mkdtempSync(join(dir, 'home-'));
        const json = join(home, 'out.json');
        const r = await runGoodput(['replay', trace, '--url', sim.url, '--json', json], { GOODPUT_HOME: home });
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr.split('\n').filter((l) => l.startsWith('goodput:'))).toHaveLength(1);
        expect(existsSync(join(home, 'db'))).toBe(false);
        expect(existsSync(json)).toBe(false);
      },
      patient(60_000),
    );
  }

  it(
    'refuses flags an agent trace decides itself',
    async () => {
      const trace = join(mkdtempSync(join(dir, 'flags-')), 'ok.jsonl');
      writeFileSync(trace, `${HEADER}\n{"agent":"a","t":0,"turns":[{"in":8,"out":2}]}\n`);
      const r = await runGoodput(['replay', trace, '--url', sim.url, '--max-concurrency', '4']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--max-concurrency: an agent trace follows its own graph/);
    },
    patient(60_000),
  );
});
