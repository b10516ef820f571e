/**
 * Replayed traces, agent traces and sessions in the server's own tokens: every
 * prompt of the run built before the first level to exactly its traced length,
 * from blocks of exact token counts. A block is seeded by its key, so block b of
 * every request naming the same key is the same text within a level (a partial
 * block is the full one's words, cut shorter) and the trace's shared prefixes
 * stay shared; the level's salt comes first, so no level is served from the cache
 * another warmed. The joined blocks are counted once; where joining moved the
 * count (a tokenizer merging across a boundary), the last block is refitted so
 * the whole is exact. A session's user message is one block.
 */
import { hashString53 } from '../core/index.js';
import {
  type AgentsSource,
  type PromptBlock,
  type PromptSource,
  type SessionsSource,
  type TokenCounter,
  agentBlockKeys,
  exactPrompt,
  promptBlocks,
  traceBlocks,
} from '../workload/index.js';

/** One prompt to build: its length, the salt it starts with ('' for none) and its blocks. */
export interface BlockPrompt {
  p: number;
  lead: string;
  blocks: readonly PromptBlock[];
}

/** Builds to the same counter: each block once (per lead), each lead counted once. */
export class BlockTexts {
  private readonly blocks = new Map<string, Promise<string>>();
  private readonly leads = new Map<string, Promise<number>>();

  constructor(
    private readonly counter: TokenCounter,
    private readonly seed: number,
  ) {}

  private seedOf(key: string): number {
    return hashString53(`${this.seed}:${key}`) % 4294967296;
  }

  private block(b: PromptBlock, lead: string): Promise<string> {
    const id = `${lead}\u0000${b.key}\u0000${b.n}`;
    let text = this.blocks.get(id);
    if (text === undefined) {
      text = exactPrompt(this.counter, b.n, lead, this.seedOf(b.key));
      this.blocks.set(id, text);
    }
    return text;
  }

  private leadTokens(lead: string): Promise<number> {
    let n = this.leads.get(lead);
    if (n === undefined) {
      n = this.counter.count(lead);
      this.leads.set(lead, n);
    }
    return n;
  }

  /** A text of exactly `q.p` tokens. @throws WorkloadError when no exact fit is found; the counter's own errors otherwise. */
  async text(q: BlockPrompt): Promise<string> {
    const first = q.blocks[0];
    if (first === undefined) return '';
    // A salt as long as the first block leaves no room for it: so short a prompt goes without.
    const lead = q.lead !== '' && (await this.leadTokens(q.lead)) < first.n ? q.lead : '';
    const pieces: string[] = [];
    for (const [i, b] of q.blocks.entries()) pieces.push(await this.block(b, i === 0 ? lead : ''));
    if (pieces.length === 1) return pieces[0] as string;
    const text = pieces.join(' ');
    if ((await this.counter.count(text)) === q.p) return text;
    return exactPrompt(this.counter, q.p, pieces.slice(0, -1).join(' '), this.seedOf((q.blocks.at(-1) as PromptBlock).key));
  }
}

/** Counts in flight at once against the server while building. */
const COUNTS_IN_FLIGHT = 8;

/** `fn` over `items`, a few at once, results in order. */
async function inPool<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(COUNTS_IN_FLIGHT, items.length) }, worker));
  return out;
}

/** The kinds of prompt source whose lengths are built here. */
export type BlockSource = Extract<PromptSource, { kind: 'trace' | 'sessions' | 'agents' }>;

export const isBlockSource = (s: PromptSource): s is BlockSource => s.kind === 'trace' || s.kind === 'sessions' || s.kind === 'agents';

/** Prompt tokens the source's prompts add up to at one level (what building them costs). */
export function blockSourceTokens(src: BlockSource): number {
  if (src.kind === 'trace') return src.requests.reduce((a, r) => a + (r.text === undefined ? r.p : 0), 0);
  return (src.sessions as ReadonlyArray<{ turns: ReadonlyArray<{ p?: number | undefined }> }>).reduce(
    (a, s) => a + s.turns.reduce((b, t) => b + (t.p ?? 0), 0),
    0,
  );
}

/** `build` over every turn of every session, a few at once, as texts per session. */
async function perTurn<T>(sessions: ReadonlyArray<{ turns: readonly T[] }>, build: (t: T, id: number, turn: number) => Promise<string>): Promise<string[][]> {
  const flat = await inPool(
    sessions.flatMap((s, id) => s.turns.map((t, turn) => ({ t, id, turn }))),
    ({ t, id, turn }) => build(t, id, turn),
  );
  let i = 0;
  return sessions.map((s) => s.turns.map(() => flat[i++] as string));
}

/** Turn texts per session of an agent trace at the level salted `salt`: each turn its whole context, from its blocks. */
function agentTexts(src: AgentsSource, salt: string, build: BlockTexts): Promise<string[][]> {
  return perTurn(src.sessions, (t, id, turn) => {
    const keys = agentBlockKeys(src, id, turn);
    return build.text({ p: t.p, lead: `r${salt}`, blocks: promptBlocks(t.p, src.blockTokens, (b) => keys[b] as string) });
  });
}

/** User messages per session at the level salted `salt`: the first starts with the session's own word; a message given as text is kept. */
function sessionTexts(src: SessionsSource, salt: string, build: BlockTexts): Promise<string[][]> {
  return perTurn(src.sessions, (t, id, turn) =>
    t.p === undefined
      ? Promise.resolve(t.text as string)
      : build.text({ p: t.p, lead: turn === 0 ? `r${salt}s${id}` : '', blocks: [{ key: `s${id}:t${turn}`, n: t.p }] }),
  );
}

/**
 * The source with every level's prompts built to exactly their lengths by `counter`
 * (`texts`, per level salt): a trace's requests and an agent trace's turns from their
 * blocks with the level's salt first, sessions' user messages; literal prompts as given.
 */
export async function exactBlockSource(src: BlockSource, salts: readonly string[], counter: TokenCounter, seed: number): Promise<BlockSource> {
  const build = new BlockTexts(counter, seed);
  if (src.kind === 'trace') {
    const texts: Record<string, string[]> = {};
    for (const salt of salts) {
      texts[salt] = await inPool(
        src.requests.map((r, i) => ({ r, i })),
        ({ r, i }) => (r.text !== undefined ? Promise.resolve(r.text) : build.text({ p: r.p, lead: `r${salt}`, blocks: traceBlocks(r, src.blockTokens, i) })),
      );
    }
    return { ...src, texts };
  }
  const texts: Record<string, string[][]> = {};
  for (const salt of salts) texts[salt] = src.kind === 'agents' ? await agentTexts(src, salt, build) : await sessionTexts(src, salt, build);
  return { ...src, texts };
}
