/**
 * Multi-turn sessions: each a list of turns (a user message, as text or as a
 * length to build, and the answer's output cap) with the think time before each
 * turn after the first. Turn k is sent with the whole conversation so far — the
 * earlier user messages and the model's own answers — so its prompt grows turn
 * by turn and a prefix cache can reuse the previous turn's. Sessions come from a
 * ShareGPT-style file or are synthetic (seeded uniform draws).
 */
import { FileRefusal, readRegularText } from '../files/index.js';
import { z } from 'zod';
import { LIMITS, hashString53, mulberry32 } from '../core/index.js';
import { WorkloadError } from './errors.js';
import { COMMON_WORDS } from './synthetic-prompt.js';

export const sessionsSourceSchema = z
  .object({
    kind: z.literal('sessions'),
    sessions: z
      .array(
        z
          .object({
            /** text: the user message as given; p: its length in words, built from the run's seed. o: the answer's output cap. */
            turns: z
              .array(
                z
                  .object({
                    text: z.string().min(1).optional(),
                    p: z.number().int().positive().max(LIMITS.promptTokens.max).optional(),
                    o: z.number().int().positive().max(LIMITS.outputTokens.max),
                  })
                  .strict()
                  .refine((t) => (t.text === undefined) !== (t.p === undefined), { error: 'a turn has either text or p' }),
              )
              .min(1)
              .max(LIMITS.sessionTurns.max),
            /** Think time before turns 2, 3, …, ms. */
            thinkMs: z.array(z.number().nonnegative().max(3_600_000)),
          })
          .strict()
          .refine((s) => s.thinkMs.length === s.turns.length - 1, { error: 'thinkMs has one entry per turn after the first' }),
      )
      .min(1)
      .max(LIMITS.requestsPerLevel.max),
    /** Built before the run to the exact lengths (runner/exact-texts.ts): per level salt, session id's turn texts. */
    texts: z.record(z.string(), z.array(z.array(z.string()))).optional(),
  })
  .strict();
export type SessionsSource = z.output<typeof sessionsSourceSchema>;
export type Session = SessionsSource['sessions'][number];

/** A range `A..B` of numbers (a single number is A..A). */
export type Range = readonly [number, number];

/** The user message of turn `turn` of session `id`: built to its exact length before the run, else as sessionWords says. */
export function sessionUserText(src: SessionsSource, id: number, turn: number, run: string): string {
  return src.texts?.[run]?.[id]?.[turn] ?? sessionWords(src.sessions[id] as Session, id, turn, run);
}

/** The user message of turn `turn` of session `id`: as given, or words drawn from the run, session and turn. */
export function sessionWords(s: Session, id: number, turn: number, run: string): string {
  const t = s.turns[turn] as Session['turns'][number];
  if (t.text !== undefined) return t.text;
  const rand = mulberry32(hashString53(`${run}:s${id}:t${turn}`) % 4294967296);
  const words: string[] = [];
  for (let i = 0; i < (t.p as number); i++) words.push(COMMON_WORDS[Math.floor(rand() * COMMON_WORDS.length)] as string);
  // The first message starts with a word of its own: sessions never share a prefix with each other or another run.
  if (turn === 0) words[0] = `r${run}s${id}`;
  return words.join(' ');
}

/** Total turns over all sessions: the requests a level sends. */
export const turnsOf = (src: SessionsSource): number => src.sessions.reduce((a, s) => a + s.turns.length, 0);

const draw = (rand: () => number, [a, b]: Range) => a + rand() * (b - a);
const drawInt = (rand: () => number, [a, b]: Range) => a + Math.floor(rand() * (b - a + 1));

/** `n` synthetic sessions: turns, user and answer lengths (words/tokens) and think time (s) drawn uniformly. */
export function syntheticSessions(o: { sessions: number; turns: Range; userTokens: Range; answerTokens: Range; thinkS: Range; seed: number }): SessionsSource {
  const rand = mulberry32(o.seed);
  return {
    kind: 'sessions',
    sessions: Array.from({ length: o.sessions }, () => {
      const n = drawInt(rand, o.turns);
      return {
        turns: Array.from({ length: n }, () => ({ p: drawInt(rand, o.userTokens), o: drawInt(rand, o.answerTokens) })),
        thinkMs: Array.from({ length: n - 1 }, () => Math.round(draw(rand, o.thinkS) * 1000)),
      };
    }),
  };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Sessions from a ShareGPT-style file (`[{ "conversations": [{ "from": "human" | "gpt", "value": … }] }]`):
 * each human message is a turn, its output cap the length in words of the answer recorded after it
 * (the model's actual answer is what the next turn carries). System messages are left out; a
 * conversation with no human-then-answer pair is skipped and counted.
 * @throws WorkloadError naming the file and the conversation.
 */
export async function loadShareGpt(
  path: string,
  o: { maxSessions: number; thinkS: Range; seed: number },
): Promise<{ source: SessionsSource; skipped: number }> {
  let text: string;
  try {
    text = await readRegularText(path, { bytes: LIMITS.inputFileBytes.max, what: LIMITS.inputFileBytes.what });
  } catch (err) {
    const refusal = err instanceof FileRefusal && err.refused ? err : null;
    throw new WorkloadError(
      refusal?.code === 'EFBIG' ? 'length' : 'unreadable',
      `conversations ${refusal ? refusal.message : `${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new WorkloadError('bad-format', `conversations ${path}: not JSON`);
  }
  if (!Array.isArray(data)) throw new WorkloadError('bad-format', `conversations ${path}: expected a JSON list of conversations`);
  const rand = mulberry32(o.seed);
  const sessions: Session[] = [];
  let skipped = 0;
  for (const [i, item] of data.entries()) {
    if (sessions.length >= o.maxSessions) break;
    const where = `conversations ${path}: conversation ${i + 1}`;
    const conv = (item as { conversations?: unknown } | null)?.conversations;
    if (!Array.isArray(conv)) throw new WorkloadError('bad-format', `${where}: no "conversations" list`);
    const turns: Session['turns'] = [];
    for (const [j, m] of conv.entries()) {
      const from = (m as { from?: unknown } | null)?.from;
      const value = (m as { value?: unknown } | null)?.value;
      if (typeof from !== 'string' || typeof value !== 'string')
        throw new WorkloadError('bad-format', `${where}, message ${j + 1}: needs "from" and "value" text`);
      const next = conv[j + 1] as { from?: unknown; value?: unknown } | undefined;
      if (
        (from === 'human' || from === 'user') &&
        (next?.from === 'gpt' || next?.from === 'assistant') &&
        typeof next.value === 'string' &&
        value.trim() !== ''
      ) {
        if (turns.length < LIMITS.sessionTurns.max) turns.push({ text: value, o: Math.min(LIMITS.outputTokens.max, Math.max(1, words(next.value))) });
      }
    }
    if (turns.length === 0) {
      skipped++;
      continue;
    }
    sessions.push({ turns, thinkMs: Array.from({ length: turns.length - 1 }, () => Math.round(draw(rand, o.thinkS) * 1000)) });
  }
  if (sessions.length === 0) throw new WorkloadError('bad-format', `conversations ${path}: no conversation has a human message followed by an answer`);
  return { source: { kind: 'sessions', sessions }, skipped };
}
