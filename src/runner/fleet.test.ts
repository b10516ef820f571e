/**
 * A fleet through runSweep: three simulator replicas behind `--url ×3`. The
 * targets' throughputs add up to the level's; a slowed replica shows in the
 * breakdown; the fleet's counters read from a (fake) Prometheus server equal
 * the replicas' own counters scraped directly; a target that cannot be
 * benchmarked is refused by its URL. Counts and orderings only: no wall-clock verdicts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type LevelResult, type PromScrape, type RequestRecord, parsePrometheusText, seriesValue } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { SweepError } from './errors.js';
import { levelFromRecords } from './level-result.js';
import { runSweep } from './run-kinds.js';

const FAST = { prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const base = { outputTokens: 32, promptTokens: 16, gpuSource: 'none' as const, warmup: 0, clientThreads: 1 as const };
let closers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closers.map((s) => s.close()));
  closers = [];
});
async function sim(profile: Parameters<typeof startSimulator>[0] = {}): Promise<SimServer> {
  const s = await startSimulator({ ...FAST, port: 0, ...profile });
  closers.push(s);
  return s;
}
const scrape = async (url: string): Promise<PromScrape> => parsePrometheusText(await (await fetch(`${url}/metrics`)).text());

/**
 * A Prometheus server's query API over the simulators: each instant query of
 * `{job="vllm"}` scrapes them now and answers their series, labelled as
 * Prometheus labels what it scrapes. Any other query is answered as an error.
 */
async function fakePrometheus(targets: readonly string[]): Promise<{ url: string; queries: string[] }> {
  const queries: string[] = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const query = u.searchParams.get('query') ?? '';
    queries.push(`${u.pathname} ${query} ${u.searchParams.has('time') ? 'at time' : 'now'}`);
    if (u.pathname !== '/api/v1/query' || query !== '{job="vllm"}') {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"status":"error","error":"unexpected query"}');
      return;
    }
    void Promise.all(targets.map(async (t) => ({ instance: new URL(t).host, scrape: await scrape(t) }))).then((got) => {
      const at = Number(u.searchParams.get('time'));
      const result = got.flatMap(({ instance, scrape: s }) =>
        s.samples.map((x) => ({ metric: { __name__: x.name, ...x.labels, job: 'vllm', instance }, value: [at, String(x.value)] })),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, queries };
}

/** The counters a level's server view states, beside the fleet's own. */
const COUNTERS = ['requests', 'generatedTokens', 'promptTokens'] as const;

describe('a fleet of three replicas', () => {
  it("breaks each level down per target, the targets' throughputs adding up to the level's", async () => {
    const urls = [(await sim()).url, (await sim()).url, (await sim()).url];
    let records: readonly RequestRecord[] = [];
    const result = await runSweep(
      { ...base, url: urls[0] as string, fleet: { urls, route: 'round-robin' }, levels: [3], requestsPerLevel: 24 },
      { afterLevel: async (_, r) => void (records = r) },
    );
    const level = result.levels[0] as LevelResult;
    const targets = level.targets ?? [];
    expect(targets.map((t) => t.url)).toEqual(urls);
    // Round-robin over one client thread: eight requests each.
    expect(targets.map((t) => t.requests)).toEqual([8, 8, 8]);
    expect(targets.map((t) => t.failed)).toEqual([0, 0, 0]);
    const sum = targets.reduce((a, t) => a + t.throughputTokS, 0);
    expect(sum).toBeCloseTo(level.throughputTokS, 6);
    expect(targets.reduce((a, t) => a + t.outputTokensTotal, 0)).toBe(level.outputTokensTotal);
    expect(records.map((r) => r.target)).toEqual(records.map((r) => r.seq % 3));
    expect(result.run.fleet).toEqual({ urls, route: 'round-robin' });
    // The breakdown is the records' own: a level rebuilt from them (receipts, verify) states the same.
    expect(levelFromRecords(result, level, records).targets).toEqual(targets);
    // The fleet's counters: every replica's endpoint scraped and summed.
    expect(level.serverTruth?.requests).toBe(24);
    expect(level.serverTruth?.metricsUrl.split(' + ')).toHaveLength(3);
  });

  it('shows a slowed replica: it takes fewer requests when routed to the least in flight, and its latency stands out', async () => {
    const slow = await sim({ prefillBaseMs: 150, decodeStepMs: 10 });
    const urls = [(await sim()).url, slow.url, (await sim()).url];
    const result = await runSweep({ ...base, url: urls[0] as string, fleet: { urls, route: 'least-in-flight' }, levels: [6], requestsPerLevel: 60 });
    const [a, s, b] = result.levels[0]?.targets ?? [];
    if (a === undefined || s === undefined || b === undefined) throw new Error('expected three targets');
    expect(s.requests).toBeLessThan(Math.min(a.requests, b.requests));
    expect(s.throughputTokS).toBeLessThan(Math.min(a.throughputTokS, b.throughputTokS));
    expect(s.ttftMs?.p50 ?? 0).toBeGreaterThan(Math.max(a.ttftMs?.p50 ?? 0, b.ttftMs?.p50 ?? 0));
    const w = result.warnings.find((x) => x.code === 'target-slow');
    expect(w?.message).toMatch(new RegExp(`^concurrency 6: ${slow.url} is slow: TTFT p50 [\\d.]+ ms against [\\d.]+ ms on the others \\([\\d.]+×\\)$`));
  });

  it('reads the same per-level counters from a Prometheus server as from the replicas directly', async () => {
    const urls = [(await sim()).url, (await sim()).url, (await sim()).url];
    const prom = await fakePrometheus(urls);
    // Our own scrapes of each replica just before and after the level: without warm-ups nothing else runs between them and the level.
    const all = () => Promise.all(urls.map(scrape));
    let before: PromScrape[] = [];
    let after: PromScrape[] = [];
    const spec = { ...base, url: urls[0] as string, fleet: { urls, route: 'round-robin' as const }, levels: [3], requestsPerLevel: 18 };
    const viaProm = await runSweep(
      { ...spec, prometheus: { url: prom.url, selector: '{job="vllm"}' } },
      { beforeLevel: async () => void (before = await all()), afterLevel: async () => void (after = await all()) },
    );
    const truth = viaProm.levels[0]?.serverTruth;
    if (!truth) throw new Error('expected the server view from Prometheus');
    expect(truth.metricsUrl).toBe(`${prom.url} {job="vllm"}`);
    expect(viaProm.run.serverMetrics).toMatchObject({ available: true, url: `${prom.url} {job="vllm"}` });
    expect(prom.queries.every((q) => q === '/api/v1/query {job="vllm"} at time')).toBe(true);
    // The simulator's counter of generated tokens, summed over the replicas and differenced over the level.
    const name = [...(after[0] as PromScrape).byName.keys()].find((n) => /generation_tokens(_total)?$/.test(n)) as string;
    const direct = after.reduce(
      (a, s, i) => a + (seriesValue(s, name, { combine: 'sum' }) ?? 0) - (seriesValue(before[i] as PromScrape, name, { combine: 'sum' }) ?? 0),
      0,
    );
    expect(truth.generatedTokens).toBe(direct);
    expect(truth.generatedTokens).toBe(18 * 32);
    // The same sweep scraping the replicas' own endpoints states the same counters.
    const viaScrapes = await runSweep(spec);
    const scraped = viaScrapes.levels[0]?.serverTruth;
    for (const c of COUNTERS) expect([c, scraped?.[c]]).toEqual([c, truth[c]]);
  });

  it("keeps every turn of a session on the session's own target", async () => {
    const urls = [(await sim()).url, (await sim()).url, (await sim()).url];
    const turns = [
      { p: 6, o: 4 },
      { p: 6, o: 4 },
      { p: 6, o: 4 },
    ];
    const sessions = Array.from({ length: 5 }, () => ({ turns, thinkMs: [0, 0] }));
    let records: readonly RequestRecord[] = [];
    const result = await runSweep(
      { ...base, url: urls[0] as string, fleet: { urls, route: 'session' }, forceLength: false, levels: [2], prompts: { kind: 'sessions', sessions } },
      { afterLevel: async (_, r) => void (records = r) },
    );
    expect(records).toHaveLength(15);
    for (const r of records) expect([r.session?.id, r.target]).toEqual([r.session?.id, (r.session?.id ?? -1) % 3]);
    expect(result.levels[0]?.targets?.map((t) => t.requests)).toEqual([6, 6, 3]);
  });

  it('refuses a target that cannot be benchmarked, naming its URL, before anything is sent', async () => {
    const ok = await sim();
    const dead = await sim();
    await dead.close();
    closers = closers.filter((c) => c !== dead);
    const urls = [ok.url, dead.url];
    const err = await runSweep({ ...base, url: ok.url, fleet: { urls, route: 'round-robin' }, levels: [1], requestsPerLevel: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SweepError);
    expect((err as SweepError).message).toMatch(new RegExp(`^${dead.url} cannot be benchmarked: `));
  });
});
