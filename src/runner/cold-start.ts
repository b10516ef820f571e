/**
 * `goodput coldstart`: a server's cold start, timed from the moment its
 * process is spawned to the moment it answers ready (`GET /health` or
 * `GET /v1/models` answering 200, polled) to the first token of one streamed
 * chat request, a few times over. The process runs without a shell in a
 * process group of its own, and the whole group is stopped after each run
 * (SIGTERM, then SIGKILL after a bounded grace), on a stop and on our own exit
 * too, so no server outlives the command. Every wait is bounded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'undici';
import { type Clock, type Target, createStreamingClient, monotonicNs, readBounded, resolveTarget } from '../client/index.js';
import { sanitizeForTerminal } from '../core/index.js';

export interface ColdStartOptions {
  /** The server command, argv (no shell). */
  argv: readonly string[];
  target: Target;
  /** The model to ask; default the first `/v1/models` lists once ready. */
  model?: string;
  runs: number;
  /** Most a run waits from spawn to its first token, ms. */
  waitMs: number;
  /** Grace between SIGTERM and SIGKILL, ms. */
  stopMs: number;
  /** How often readiness is asked, ms (default 100). */
  pollMs?: number;
  signal?: AbortSignal;
  clock?: Clock;
  onRun?: (run: ColdStartRun) => void;
}

/** One cold start: ms from spawn to ready and to the first token, or why it failed. */
export interface ColdStartRun {
  run: number;
  readyMs: number | null;
  /** The route that answered ready. */
  readyBy: string | null;
  firstTokenMs: number | null;
  model: string | null;
  failure: string | null;
}

const TAIL = 2048;
const ms = (ns: number) => Math.round(ns / 1e4) / 100;
const sleep = (t: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, t);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A started server: its group, its last words on stderr, and whether (and how) it has exited. */
class ServerProcess {
  readonly child: ChildProcess;
  private tail = '';
  exited: string | null = null;
  private readonly gone: Promise<void>;
  private readonly closed: Promise<void>;
  private readonly onOurExit = () => this.signalGroup('SIGKILL');

  constructor(argv: readonly string[]) {
    this.child = spawn(argv[0] as string, argv.slice(1), { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    this.child.stderr?.on('data', (b: Buffer) => {
      this.tail = (this.tail + b.toString('utf8')).slice(-TAIL);
    });
    this.gone = new Promise((resolve) => {
      this.child.once('error', (err) => {
        this.exited = `could not be started: ${err.message}`;
        resolve();
      });
      this.child.once('exit', (code, sig) => {
        this.exited = `exited (${sig ?? `code ${String(code)}`}) before it was ready`;
        resolve();
      });
    });
    this.closed = new Promise((resolve) => this.child.once('close', () => resolve()));
    // A server left running after goodput exits would hold its port and GPU: the group dies with us.
    process.once('exit', this.onOurExit);
  }

  /** Its stderr read to the end (bounded: a grandchild may hold it open). */
  async settled(): Promise<void> {
    await Promise.race([this.closed, new Promise<void>((resolve) => setTimeout(resolve, 500).unref())]);
  }

  /** What the server said last on stderr, printable, for a failure's message. */
  lastWords(): string {
    const t = sanitizeForTerminal(this.tail.trim()).split('\n').slice(-3).join(' | ');
    return t === '' ? '' : `; its stderr ended: ${t}`;
  }

  private signalGroup(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    // The whole group, even once its leader has exited: a wrapper's children may live on.
    if (pid === undefined) return;
    try {
      process.kill(-pid, sig);
    } catch {
      // The group is already gone.
    }
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the process has exited (bounded). */
  async stop(graceMs: number): Promise<void> {
    process.off('exit', this.onOurExit);
    this.signalGroup('SIGTERM');
    const timeout = (t: number) => new Promise<void>((resolve) => setTimeout(resolve, t).unref());
    await Promise.race([this.gone, timeout(graceMs)]);
    if (this.exited === null) {
      this.signalGroup('SIGKILL');
      await Promise.race([this.gone, timeout(graceMs)]);
    }
  }
}

/** The first route of `/health`, `/v1/models` that answers 200, or null; `/v1/models`' text comes back for the model. */
async function readyRoute(target: Target, timeoutMs: number): Promise<{ route: string; text: string } | null> {
  const t = resolveTarget(target);
  for (const route of ['/health', '/v1/models']) {
    try {
      const res = await request(`${t.origin}${t.prefix}${route}`, {
        headers: { accept: 'application/json', ...t.authHeaders },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const read = await readBounded(res.body);
      if (res.statusCode === 200) return { route: `GET ${route}`, text: read.ok ? read.text : '' };
    } catch {
      // Not listening yet.
    }
  }
  return null;
}

/** The first model `/v1/models` lists, or null. */
async function firstModel(target: Target, timeoutMs: number): Promise<string | null> {
  const t = resolveTarget(target);
  try {
    const res = await request(`${t.origin}${t.prefix}/v1/models`, { headers: t.authHeaders, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    const read = await readBounded(res.body);
    const id = read.ok ? (JSON.parse(read.text) as { data?: Array<{ id?: unknown }> }).data?.[0]?.id : undefined;
    return typeof id === 'string' && id !== '' ? id : null;
  } catch {
    return null;
  }
}

/** One cold start, the process stopped at its end whatever happened. */
async function oneRun(o: ColdStartOptions, run: number): Promise<ColdStartRun> {
  const clock = o.clock ?? monotonicNs;
  const out: ColdStartRun = { run, readyMs: null, readyBy: null, firstTokenMs: null, model: null, failure: null };
  const t0 = clock();
  const server = new ServerProcess(o.argv);
  const left = () => o.waitMs - ms(clock() - t0);
  try {
    let ready: { route: string } | null = null;
    while (ready === null) {
      if (o.signal?.aborted) return { ...out, failure: 'stopped by the user' };
      if (server.exited !== null) {
        await server.settled();
        return { ...out, failure: `the server ${server.exited}${server.lastWords()}` };
      }
      if (left() <= 0) return { ...out, failure: `the server was not ready within ${o.waitMs / 1000} s${server.lastWords()}` };
      ready = await readyRoute(o.target, Math.min(1000, Math.max(1, left())));
      if (ready === null) await sleep(o.pollMs ?? 100, o.signal);
    }
    out.readyMs = ms(clock() - t0);
    out.readyBy = ready.route;
    const model = o.model ?? (await firstModel(o.target, Math.max(1, left())));
    if (model === null) return { ...out, failure: 'the server lists no model at /v1/models: give --model' };
    out.model = model;
    const client = createStreamingClient(o.target, { connections: 1, clock, timeouts: { totalMs: Math.max(1, left()) } });
    try {
      const r = await client.send(
        { endpoint: 'chat', model, prompt: 'Say hello.', maxTokens: 16, forceLength: false, thinking: false, temperature: 0 },
        { seq: 0, concurrency: 1, warmup: false, targetSendNs: clock() },
        o.signal,
      );
      if (r.firstTokenNs === null) return { ...out, failure: `the first request brought no token (${r.outcome.kind})${server.lastWords()}` };
      out.firstTokenMs = ms(r.firstTokenNs - t0);
    } finally {
      await client.close();
    }
    return out;
  } finally {
    await server.stop(o.stopMs);
  }
}

/** Times `runs` cold starts one after another; a stop ends them after the run under way (its server stopped). */
export async function coldStart(o: ColdStartOptions): Promise<ColdStartRun[]> {
  const runs: ColdStartRun[] = [];
  for (let i = 1; i <= o.runs; i++) {
    const r = await oneRun(o, i);
    runs.push(r);
    o.onRun?.(r);
    if (o.signal?.aborted) break;
  }
  return runs;
}
