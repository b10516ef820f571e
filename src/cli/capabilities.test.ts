/**
 * The capability matrix, cell by cell: docs/capabilities.md is what the
 * registry generates; every `works` cell names a test file that exists and
 * drives that surface with that kind; every `refused` cell is driven here
 * (in-process commands against the simulator, a small result of each kind)
 * and what the user reads contains the registry's reason, word for word.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { RUN_KINDS, RUN_KIND_NAMES, type RunKindName, SURFACES, type SurfaceName, capabilityOf, refusalOf } from '../core/index.js';
import { startRunSchema } from '../api/index.js';
import { levelEventOf, remoteCatalog } from '../runs/index.js';
import { runSweep } from '../runner/index.js';
import { synthAgentTrace } from '../workload/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { poolingContract } from '../test-support/pooling-contract.js';
import { undrawnReason } from '../web/index.js';
import { CAPABILITIES_DOC, capabilitiesDoc } from './capabilities-doc.js';
import { registerRerunCommand } from './rerun-command.js';

const SRC = new URL('../', import.meta.url);
const SURFACE_NAMES = Object.keys(SURFACES) as SurfaceName[];
const cells = (want: 'works' | 'refused') =>
  RUN_KIND_NAMES.flatMap((kind) => SURFACE_NAMES.filter((s) => want in capabilityOf(kind, s)).map((surface) => ({ kind, surface })));

/** What a test file that drives a surface says somewhere (a command, a flag, a route). */
const SURFACE_WORDS: Record<SurfaceName, RegExp> = {
  sweep: /sweep/,
  contract: /contract/,
  rerun: /rerun/,
  capacity: /capacity/,
  repeats: /repeats/,
  sign: /--sign|--key/,
  'contract-save': /--save|--data/,
  'client-threads': /client-threads|clientThreads/,
  workers: /workers/i,
  save: /--data|--save|store/,
  'serve-save': /\/api\/ingest/,
  'api-start': /\/api\/runs|startRunSchema/,
  page: /page/,
  compare: /compare/,
  report: /report/,
  'stored-runs': /--data|store/,
  'export-jsonl': /jsonl/,
  'export-csv': /csv/,
  'export-parquet-free-json': /parquet-free-json/,
  'export-markdown': /markdown/,
  'export-vllm': /vllm/,
  receipt: /receipt/,
  verify: /verif/,
  reproduce: /reproduce/,
  replay: /replay/,
  sessions: /sessions/,
  agents: /agent/,
  dataset: /--dataset/,
  'server-hooks': /--reset-cache-between/,
  pools: /disagg|--metrics-url/,
  lora: /--lora/,
  cancel: /--cancel-after-(ms|tokens)/,
};

describe('docs/capabilities.md', () => {
  it('is the matrix the registry generates (run `npm run docs:capabilities` after changing a kind)', () => {
    expect(readFileSync(CAPABILITIES_DOC, 'utf8')).toBe(capabilitiesDoc());
  });

  it('lists every kind and every surface', () => {
    const doc = capabilitiesDoc();
    for (const k of RUN_KIND_NAMES) expect(doc).toContain(`${k} (${RUN_KINDS[k].label})`);
    for (const s of SURFACE_NAMES) expect(doc).toContain(`| ${SURFACES[s].replaceAll('|', '\\|')} |`);
  });
});

describe.each(cells('works'))('$surface serves $kind', ({ kind, surface }) => {
  it('names a test file that drives the surface with the kind', () => {
    const cell = capabilityOf(kind, surface) as { works: string };
    const file = new URL(cell.works, SRC);
    expect(existsSync(file), cell.works).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text, cell.works).toMatch(SURFACE_WORDS[surface]);
    // Text generation is the default kind (no endpoint named); any other kind's test names one of its endpoints.
    if (kind !== 'text')
      expect(
        RUN_KINDS[kind].endpoints.some((e) => text.includes(e)),
        cell.works,
      ).toBe(true);
  });
});

let sim: SimServer;
const dir = mkdtempSync(join(tmpdir(), 'goodput-capabilities-'));
const data = join(dir, 'db');
/** A small result file of each kind other than text (two copies: compare refuses one run named twice). */
const files = {} as Record<RunKindName, [string, string]>;
/** The stored run id of each kind (text has none: it serves every surface). */
const stored = {} as Record<RunKindName, string>;
const ENDPOINT: Record<RunKindName, string> = { text: 'chat', pooling: 'embeddings', transcriptions: 'transcriptions' };
const SWEEP_FLAGS: Record<RunKindName, string[]> = {
  text: ['--output-tokens', '8'],
  pooling: ['--batch-size', '2'],
  transcriptions: ['--audio-seconds', '1'],
};

beforeAll(async () => {
  sim = await startSimulator();
  const specs = {
    pooling: { endpoint: 'embeddings', itemsPerRequest: 1, itemTokens: 8 },
    transcriptions: { endpoint: 'transcriptions', audioSeconds: 1 },
  };
  for (const [kind, spec] of Object.entries(specs) as Array<[RunKindName, object]>) {
    const result = await runSweep({ url: sim.url, levels: [1], requestsPerLevel: 2, warmup: 0, ...spec } as never);
    files[kind] = [join(dir, `${kind}.json`), join(dir, `${kind}-copy.json`)];
    for (const f of files[kind]) writeFileSync(f, JSON.stringify(result));
  }
  let id = 0;
  for (const kind of ['pooling', 'transcriptions'] as const) {
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--endpoint',
      ENDPOINT[kind],
      ...SWEEP_FLAGS[kind],
      '--levels',
      '1',
      '--requests-per-level',
      '2',
      '--data',
      data,
    ]);
    expect(r.code, r.stderr).toBe(0);
    stored[kind] = String(++id);
  }
}, 60_000);
afterAll(async () => {
  await sim.close();
});

/** `goodput rerun` (not among the in-process commands): the message it stops with. */
async function rerun(path: string): Promise<string> {
  const program = new Command('goodput').exitOverride();
  registerRerunCommand(program);
  try {
    await program.parseAsync(['node', 'goodput', 'rerun', path]);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

async function contractRun(kind: RunKindName, command: string[]): Promise<string> {
  const path = join(dir, `${kind}-contract.yaml`);
  writeFileSync(path, stringify(poolingContract(sim.url, 'embeddings', (c) => (c.server.endpoint = ENDPOINT[kind]))));
  return (await cli([...command.slice(0, 1), path, ...command.slice(1)])).stderr;
}

const sweepWith = async (kind: RunKindName, ...flags: string[]) =>
  (await cli(['sweep', '--url', sim.url, '--endpoint', ENDPOINT[kind], ...SWEEP_FLAGS[kind], '--levels', '1', ...flags])).stderr;
const exportAs = async (kind: RunKindName, format: string) => (await cli(['export', files[kind][0], '--format', format])).stderr;

/** A small agent trace, as `goodput trace synth` writes one. */
const AGENTS = {
  agents: 2,
  fanOut: [1, 1],
  turns: [2, 2],
  toolWaitS: [0, 0],
  delayS: [0, 0],
  rootGapS: [0, 0],
  systemTokens: 16,
  firstTokens: [8, 8],
  growTokens: [8, 8],
  outTokens: [4, 4],
  blockTokens: 16,
  seed: 1,
} as const;

/** Each surface driven with a kind: what the user reads. */
const DRIVE: Record<SurfaceName, (kind: RunKindName) => Promise<string>> = {
  sweep: (k) => sweepWith(k),
  contract: (k) => contractRun(k, ['run']),
  rerun: (k) => rerun(files[k][0]),
  capacity: (k) => contractRun(k, ['capacity']),
  repeats: (k) => contractRun(k, ['run', '--repeats', '2']),
  sign: (k) => contractRun(k, ['run', '--sign', '--json', join(dir, 'signed.json')]),
  'contract-save': (k) => contractRun(k, ['run', '--save', '--data', data]),
  'client-threads': (k) => sweepWith(k, '--client-threads', '2'),
  workers: (k) => sweepWith(k, '--workers', '2'),
  save: async () => '',
  'serve-save': async (k) => {
    const store = remoteCatalog('http://127.0.0.1:9', { timeoutMs: 500 });
    const spec = { url: sim.url, endpoint: ENDPOINT[k], levels: [1] };
    return store.beginRun({ serverId: null, serverName: null, targetUrl: sim.url, spec } as never).then(
      () => '',
      (err: Error) => err.message,
    );
  },
  'api-start': async (k) => startRunSchema.safeParse({ serverId: 1, endpoint: ENDPOINT[k], levels: [1] }).error?.issues[0]?.message ?? '',
  // The page's run view shows `undrawnReason` as its banner; a live level arrives as the stored kind's event.
  page: async (k) => {
    const live = levelEventOf(k, { concurrency: 1 } as never);
    const banner = undrawnReason({ endpoint: ENDPOINT[k] }) ?? '';
    return live.kind === 'warning' && live.warning.message.endsWith(banner) ? banner : `banner "${banner}", live ${JSON.stringify(live)}`;
  },
  compare: async (k) => (await cli(['compare', ...files[k]])).stderr,
  report: async (k) => (await cli(['report', files[k][0], '--out', join(dir, 'report.html')])).stderr,
  'stored-runs': async (k) => (await cli(['compare', stored[k] as string, files.pooling[1], '--data', data])).stderr,
  'export-jsonl': (k) => exportAs(k, 'jsonl'),
  'export-csv': (k) => exportAs(k, 'csv'),
  'export-parquet-free-json': (k) => exportAs(k, 'parquet-free-json'),
  'export-markdown': (k) => exportAs(k, 'markdown'),
  'export-vllm': (k) => exportAs(k, 'vllm'),
  receipt: async (k) =>
    (await cli(['receipt', 'create', '--baseline', files[k][0], '--optimized', files[k][1], '--method', 'm', '--out', join(dir, 'r.json')])).stderr,
  // No receipt of a kind receipt create refuses can exist: what verify would check is never made.
  verify: async (k) => ('refused' in capabilityOf(k, 'receipt') ? refusalOf(k, 'verify', { endpoint: ENDPOINT[k] }) : ''),
  reproduce: async (k) => ('refused' in capabilityOf(k, 'receipt') ? refusalOf(k, 'reproduce', { endpoint: ENDPOINT[k] }) : ''),
  replay: async (k) => (await cli(['replay', files[k][0], '--url', sim.url, '--endpoint', ENDPOINT[k]])).stderr,
  sessions: async (k) => (await cli(['sessions', '--url', sim.url, '--endpoint', ENDPOINT[k]])).stderr,
  dataset: async (k) => {
    const file = join(dir, 'prompts.jsonl');
    writeFileSync(file, '{"q": "a question"}\n');
    return (await cli(['sweep', '--url', sim.url, '--endpoint', ENDPOINT[k], '--dataset', file, '--column', 'prompt=q'])).stderr;
  },
  'server-hooks': async (k) => (await cli(['sweep', '--url', sim.url, '--endpoint', ENDPOINT[k], '--reset-cache-between', 'levels'])).stderr,
  pools: async (k) => (await cli(['sweep', '--url', sim.url, '--endpoint', ENDPOINT[k], '--metrics-url', `decode=${sim.url}/metrics`])).stderr,
  lora: async (k) => (await cli(['sweep', '--url', sim.url, '--endpoint', ENDPOINT[k], '--lora', 'a=1'])).stderr,
  cancel: async (k) => (await cli(['sweep', '--url', sim.url, '--endpoint', ENDPOINT[k], '--cancel-after-ms', '100'])).stderr,
  agents: async (k) => {
    const trace = join(dir, 'agents.jsonl');
    writeFileSync(trace, synthAgentTrace(AGENTS).join('\n') + '\n');
    return (await cli(['replay', trace, '--url', sim.url, '--endpoint', ENDPOINT[k]])).stderr;
  },
};

/** The words a surface fills the reason with, for this test's runs. */
const words = (kind: RunKindName, surface: SurfaceName) => ({ endpoint: ENDPOINT[kind], format: surface.replace(/^export-/, '') });

describe.each(cells('refused'))('$surface refuses $kind', ({ kind, surface }) => {
  it("in the capability matrix's words", async () => {
    const said = await DRIVE[surface](kind);
    expect(said).toContain(refusalOf(kind, surface, words(kind, surface)));
  });
});
