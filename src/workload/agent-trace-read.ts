/**
 * Agent traces to replay, in two line-oriented forms (docs/agents.md):
 *
 * - goodput agents JSONL: a header line `{"goodput": "agents", "block_tokens"?,
 *   "context"?}`, then one line per agent session: `{"agent", "t"}` for a root,
 *   `{"agent", "parent", "after", "delay"?}` for a sub-agent, each with
 *   `"turns": [{"in", "out", "hash_ids"?, "wait"?}]` (seconds, tokens);
 * - AgentX (the Weka trace objects AIPerf reads), one object per line: `id`,
 *   `block_size`, `requests` of `type` "n"/"s" (`in`, `out`, `hash_ids`,
 *   `think_time`) and "subagent" markers with their own `requests`.
 *
 * The graph is checked whole before anything is sent: every sub-agent names a
 * parent that exists, is spawned after a turn its parent has and joins before a
 * later one, no agent is its own ancestor, and no turn outgrows the declared
 * context. Each refusal is one line naming the file and line.
 */
import { LIMITS, limitMessage } from '../core/index.js';
import type { AgentsSource } from './agent-source.js';
import { WorkloadError } from './errors.js';
import { forEachTextLine, forEachTraceLine } from './trace-lines.js';
import { DEFAULT_BLOCK_TOKENS, jsonObject, shown } from './trace-read.js';

export type AgentTraceFormat = 'goodput-agents' | 'agentx';

export interface AgentTrace {
  path: string;
  format: AgentTraceFormat;
  sha256: string;
  source: AgentsSource;
}

type Obj = Record<string, unknown>;
type Turn = AgentsSource['sessions'][number]['turns'][number];
interface Raw {
  name: string;
  line: number;
  parentName: string | null;
  after: number;
  atMs: number;
  turns: Turn[];
}

const bad = (where: string, what: string) => new WorkloadError('bad-format', `${where}: ${what}`);

function whole(where: string, name: string, v: unknown, min: number, limit?: 'promptTokens' | 'outputTokens'): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw bad(where, `${name} ${shown(v)} is not a whole number${min > 0 ? ` of at least ${min}` : ''}`);
  if (limit && v > LIMITS[limit].max) throw new WorkloadError('length', `${where}: ${limitMessage(limit, v, name)}`);
  return v;
}
/** Seconds as given (a delay, a wait, a start), as ms; at most an hour for a wait, a year for a start. */
function seconds(where: string, name: string, v: unknown, maxS: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > maxS) throw bad(where, `${name} ${shown(v)} is not a number of seconds from 0 to ${maxS}`);
  return v * 1000;
}
function list(where: string, name: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) throw bad(where, `${name} must be a list`);
  return v;
}
const HOUR_S = 3600;
const YEAR_S = 366 * 86_400;

function ids(where: string, v: unknown, remap?: (id: number) => number): number[] | undefined {
  if (v === undefined) return undefined;
  return list(where, 'hash_ids', v).map((id, i) => ((n) => (remap ? remap(n) : n))(whole(where, `hash_ids[${i}]`, id, 0)));
}

function turnsOf(where: string, name: string, v: unknown, read: (t: Obj, where: string) => Turn): Turn[] {
  const items = list(where, `agent ${name}: turns`, v);
  if (items.length === 0) throw bad(where, `agent ${name} has no turns`);
  if (items.length > LIMITS.agentTurns.max) throw new WorkloadError('length', `${where}: ${limitMessage('agentTurns', items.length, `agent ${name}'s turns`)}`);
  return items.map((t, k) => {
    if (t === null || typeof t !== 'object' || Array.isArray(t)) throw bad(where, `agent ${name}: turn ${k + 1} is not a JSON object`);
    return read(t as Obj, `${where}: agent ${name} turn ${k + 1}`);
  });
}

const GOODPUT_SESSION_KEYS = new Set(['agent', 't', 'parent', 'after', 'delay', 'turns']);
const GOODPUT_TURN_KEYS = new Set(['in', 'out', 'hash_ids', 'wait']);

function goodputTurn(t: Obj, where: string): Turn {
  for (const k of Object.keys(t)) if (!GOODPUT_TURN_KEYS.has(k)) throw bad(where, `unknown key "${k}" (a turn has in, out, hash_ids, wait)`);
  const h = ids(where, t['hash_ids']);
  return {
    p: whole(where, 'in', t['in'], 1, 'promptTokens'),
    o: whole(where, 'out', t['out'], 1, 'outputTokens'),
    ...(h ? { h } : {}),
    w: t['wait'] === undefined ? 0 : seconds(where, 'wait', t['wait'], HOUR_S),
  };
}

function goodputSession(o: Obj, where: string): Raw {
  for (const k of Object.keys(o))
    if (!GOODPUT_SESSION_KEYS.has(k)) throw bad(where, `unknown key "${k}" (an agent line has agent, t or parent/after/delay, turns)`);
  const name = o['agent'];
  if (typeof name !== 'string' || name === '' || name.length > 256) throw bad(where, `agent ${shown(name)} is not a name of 1 to 256 characters`);
  const root = o['parent'] === undefined;
  if (root && o['t'] === undefined) throw bad(where, `agent ${name} has neither "t" (a root's start) nor "parent" (a sub-agent's)`);
  if (!root && o['t'] !== undefined) throw bad(where, `agent ${name} has both "t" and "parent": a sub-agent starts after its parent's turn, not at a time`);
  if (!root && typeof o['parent'] !== 'string') throw bad(where, `agent ${name}: parent ${shown(o['parent'])} is not an agent's name`);
  return {
    name,
    line: 0,
    parentName: root ? null : (o['parent'] as string),
    after: root ? 0 : whole(where, 'after', o['after'], 1) - 1,
    atMs: root ? seconds(where, 't', o['t'], YEAR_S) : o['delay'] === undefined ? 0 : seconds(where, 'delay', o['delay'], HOUR_S),
    turns: turnsOf(where, name, o['turns'], goodputTurn),
  };
}

/** One AgentX object: its root session and its sub-agents (each spawned after the root turn before its marker). */
function agentxSessions(o: Obj, where: string, remap: (id: number) => number): { blockTokens: number; sessions: Raw[] } {
  const id = o['id'];
  if (typeof id !== 'string' || id === '' || id.length > 200) throw bad(where, `id ${shown(id)} is not a trace id of 1 to 200 characters`);
  const blockTokens = whole(where, 'block_size', o['block_size'], 1);
  if (blockTokens > LIMITS.traceBlockTokens.max) throw new WorkloadError('length', `${where}: ${limitMessage('traceBlockTokens', blockTokens, 'block_size')}`);
  const turnOf = (r: Obj, w: string): Turn => {
    const h = ids(w, r['hash_ids'], remap);
    const think = r['think_time'];
    return {
      p: whole(w, 'in', r['in'], 1, 'promptTokens'),
      o: whole(w, 'out', r['out'], 1, 'outputTokens'),
      ...(h ? { h } : {}),
      w: think === undefined || think === null ? 0 : seconds(w, 'think_time', think, HOUR_S),
    };
  };
  const root: Raw = { name: id, line: 0, parentName: null, after: 0, atMs: 0, turns: [] };
  const children: Raw[] = [];
  const requests = list(where, 'requests', o['requests']);
  let firstT: number | null = null;
  for (const [i, r] of requests.entries()) {
    const w = `${where}: requests[${i}]`;
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw bad(w, 'not a JSON object');
    const req = r as Obj;
    if (req['type'] === 'subagent') {
      const agent = typeof req['agent_id'] === 'string' && req['agent_id'] !== '' ? req['agent_id'].slice(0, 40) : `${i}`;
      if (root.turns.length === 0) throw bad(w, `sub-agent ${agent} is spawned before the trace's first turn: it has no parent turn to start after`);
      const inner = list(w, 'requests', req['requests']).filter((x) => (x as Obj | null)?.['type'] !== 'subagent');
      const turns = turnsOf(w, agent, inner, turnOf);
      children.push({
        name: `${id}::sa:${agent}`,
        line: 0,
        parentName: id,
        after: root.turns.length - 1,
        atMs: turns[0]?.w ?? 0,
        turns: turns.map((t, k) => (k === 0 ? { ...t, w: 0 } : t)),
      });
    } else if (req['type'] === 'n' || req['type'] === 's') {
      const t = req['t'];
      if (typeof t !== 'number' || !Number.isFinite(t)) throw bad(w, `t ${shown(t)} is not a number of seconds`);
      firstT ??= t;
      root.turns.push(turnOf(req, w));
      if (root.turns.length > LIMITS.agentTurns.max)
        throw new WorkloadError('length', `${w}: ${limitMessage('agentTurns', root.turns.length, `trace ${id}'s turns`)}`);
    } else throw bad(w, `type ${shown(req['type'])} is not "n", "s" or "subagent"`);
  }
  if (root.turns.length === 0) throw bad(where, `trace ${id} has no requests of type "n" or "s"`);
  root.turns[0] = { ...(root.turns[0] as Turn), w: 0 };
  root.atMs = Math.max(0, (firstT ?? 0) * 1000);
  return { blockTokens, sessions: [root, ...children] };
}

/** The kind of agent trace `path` holds, from its first line; null when it is not one (a request trace). */
export async function agentTraceFormat(path: string): Promise<AgentTraceFormat | null> {
  let first: Obj | null = null;
  await forEachTraceLine(path, (text) => {
    if (text.trim() === '') return true;
    if (text.trimStart().startsWith('{')) {
      try {
        first = JSON.parse(text) as Obj;
      } catch {
        first = null;
      }
    }
    return false;
  });
  const f = first as Obj | null;
  if (f === null || typeof f !== 'object') return null;
  if (f['goodput'] === 'agents') return 'goodput-agents';
  if ('requests' in f && 'block_size' in f) return 'agentx';
  return null;
}

/** A turn's hash ids name its prompt's blocks: never more of them than its prompt tokens fill blocks (the last one partly). */
function checkHashIds(where: string, r: Raw, blockTokens: number): void {
  for (const [k, t] of r.turns.entries()) {
    const blocks = Math.ceil(t.p / blockTokens);
    if (t.h !== undefined && t.h.length > blocks) {
      throw bad(
        where,
        `agent ${r.name} turn ${k + 1}: hash_ids holds ${t.h.length} ids, more than the ${blocks} block${blocks === 1 ? '' : 's'} of ${blockTokens} tokens its ${t.p} prompt tokens fill`,
      );
    }
  }
}

/** Reads, validates and links an agent trace. @throws WorkloadError naming the file and line. */
export async function readAgentTrace(path: string): Promise<AgentTrace> {
  const reader = agentTraceReader(path);
  return reader.finish((await forEachTraceLine(path, reader.onLine)).sha256);
}

/**
 * An agent trace given as its text (a file picked in the page, sent in the API's start body), read and
 * checked as a file is; `name` (the file's name) names it in messages and in the replay's source.
 * @throws WorkloadError naming the file and line.
 */
export function parseAgentTrace(name: string, text: string): AgentTrace {
  const reader = agentTraceReader(name);
  return reader.finish(forEachTextLine(name, text, reader.onLine).sha256);
}

/** Reads a trace's lines as they come (`onLine`), then links them (`finish`, given the bytes' sha256). */
function agentTraceReader(path: string): { onLine: (text: string, line: number) => void; finish: (sha256: string) => AgentTrace } {
  const raws: Raw[] = [];
  let format: AgentTraceFormat | null = null;
  let blockTokens = DEFAULT_BLOCK_TOKENS;
  let context: number | null = null;
  let turns = 0;
  let nextId = 0;
  const onLine = (text: string, line: number): void => {
    const where = `agent trace ${path}: line ${line}`;
    if (text.trim() === '') return;
    const o = jsonObject(where, text);
    const add = (r: Raw) => {
      checkHashIds(where, r, blockTokens);
      raws.push({ ...r, line });
      turns += r.turns.length;
      if (raws.length > LIMITS.requestsPerLevel.max || turns > LIMITS.requestsPerLevel.max) {
        throw new WorkloadError(
          'length',
          `${where}: ${limitMessage('requestsPerLevel', Math.max(raws.length, turns), raws.length > LIMITS.requestsPerLevel.max ? 'agent sessions' : 'turns')}`,
        );
      }
    };
    if (format === null) {
      if (o['goodput'] === 'agents') {
        format = 'goodput-agents';
        for (const k of Object.keys(o))
          if (!['goodput', 'block_tokens', 'context'].includes(k))
            throw bad(where, `unknown header key "${k}" (the header has goodput, block_tokens, context)`);
        if (o['block_tokens'] !== undefined) blockTokens = whole(where, 'block_tokens', o['block_tokens'], 1);
        if (blockTokens > LIMITS.traceBlockTokens.max)
          throw new WorkloadError('length', `${where}: ${limitMessage('traceBlockTokens', blockTokens, 'block_tokens')}`);
        if (o['context'] !== undefined) context = whole(where, 'context', o['context'], 1);
        return;
      }
      if (!('requests' in o && 'block_size' in o))
        throw bad(where, 'an agent trace starts with {"goodput": "agents"} or is AgentX objects (id, block_size, requests)');
      format = 'agentx';
    }
    if (format === 'goodput-agents') return add(goodputSession(o, where));
    const ownIds = new Map<number, number>();
    // AgentX hash ids are scoped to their trace: each line's ids are renumbered apart from every other line's.
    const got = agentxSessions(o, where, (id) => ownIds.get(id) ?? ((n) => (ownIds.set(id, n), n))(nextId++));
    if (raws.length > 0 && got.blockTokens !== blockTokens) throw bad(where, `block_size ${got.blockTokens} differs from the first trace's ${blockTokens}`);
    blockTokens = got.blockTokens;
    for (const r of got.sessions) add(r);
  };
  const finish = (sha256: string): AgentTrace => {
    if (format === null || raws.length === 0) throw bad(`agent trace ${path}`, 'no agent sessions');
    return { path, format, sha256, source: link(path, raws, blockTokens, context) };
  };
  return { onLine, finish };
}

/** Resolves parents, refuses what cannot run (missing parent, no join, a cycle, a turn past the context) and orders roots by start. */
function link(path: string, raws: Raw[], blockTokens: number, context: number | null): AgentsSource {
  const at = (r: Raw) => `agent trace ${path}: line ${r.line}`;
  const byName = new Map<string, number>();
  for (const [i, r] of raws.entries()) {
    if (byName.has(r.name)) throw bad(at(r), `agent ${r.name} is named twice (first at line ${raws[byName.get(r.name) as number]?.line})`);
    byName.set(r.name, i);
  }
  const parentOf = raws.map((r) => {
    if (r.parentName === null) return null;
    const p = byName.get(r.parentName);
    if (p === undefined) throw bad(at(r), `agent ${r.name}'s parent ${r.parentName} is not in the trace`);
    const parent = raws[p] as Raw;
    if (r.after >= parent.turns.length)
      throw bad(
        at(r),
        `agent ${r.name} is spawned after turn ${r.after + 1} of ${parent.name}, which has ${parent.turns.length} turn${parent.turns.length === 1 ? '' : 's'}`,
      );
    if (r.after === parent.turns.length - 1)
      throw bad(at(r), `agent ${r.name} never joins: it is spawned after ${parent.name}'s last turn, and no later turn of ${parent.name} waits for it`);
    return p;
  });
  // Every chain of parents must reach a root; a chain that comes back on itself is a cycle.
  const jobOf: Array<number | undefined> = [];
  for (const [i, r] of raws.entries()) {
    const seen: number[] = [];
    let cur: number | null = i;
    while (cur !== null && jobOf[cur] === undefined) {
      if (seen.includes(cur)) {
        const loop = seen.slice(seen.indexOf(cur)).map((k) => raws[k]?.name);
        throw bad(at(raws[cur] as Raw), `the agents ${[...loop, raws[cur]?.name].join(' → ')} form a cycle: none of them is started by a root`);
      }
      seen.push(cur);
      cur = parentOf[cur] ?? null;
    }
    const job = cur === null ? (seen.at(-1) as number) : (jobOf[cur] as number);
    for (const k of seen) jobOf[k] = job;
    if (context !== null) {
      const k = r.turns.findIndex((t) => t.p + t.o > context);
      const t = r.turns[k];
      if (t)
        throw new WorkloadError(
          'length',
          `${at(r)}: agent ${r.name} turn ${k + 1} needs ${t.p} prompt plus ${t.o} output tokens (${t.p + t.o}), longer than the trace's declared context of ${context} tokens`,
        );
    }
  }
  let blocks = 0;
  for (const r of raws) {
    blocks += r.turns.reduce((a, t) => a + Math.ceil(t.p / blockTokens), 0);
    if (blocks > LIMITS.agentTraceBlocks.max)
      throw new WorkloadError(
        'length',
        `${at(r)}: ${limitMessage('agentTraceBlocks', blocks, 'blocks up to this agent')}; use larger blocks (block_tokens) or a shorter trace`,
      );
  }
  const roots = raws.map((r, i) => ({ r, i })).filter(({ i }) => parentOf[i] === null);
  const t0 = Math.min(...roots.map(({ r }) => r.atMs));
  return {
    kind: 'agents',
    blockTokens,
    context,
    sessions: raws.map((r, i) => ({
      name: r.name,
      line: r.line,
      job: jobOf[i] as number,
      parent: parentOf[i] ?? null,
      after: r.after,
      atMs: parentOf[i] === null ? r.atMs - t0 : r.atMs,
      turns: r.turns,
    })),
  };
}
