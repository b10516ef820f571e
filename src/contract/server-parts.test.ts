/** A contract's fleet and pools: each refusal names its field, the addresses stay out of the hash and the rest is in it, and the sweep gets them. */
import { describe, expect, it } from 'vitest';
import { contractHash } from './contract-hash.js';
import { contractSchema } from './contract-schema.js';
import { validateContract } from './load-contract.js';
import { prepareCells } from './prepare-cells.js';

const minimal = {
  version: 1,
  server: { url: 'http://127.0.0.1:8000' },
  model: { name: 'm', revision: 'r1', tokenizer: { kind: 'approximate' }, precision: 'bf16', quantization: 'none' },
  workload: { prompts: { kind: 'synthetic', tokens: 64 }, outputTokens: 32 },
  load: { levels: [1, 2] },
  slo: { ttftMs: { p: 95, max: 500 } },
  hardware: { label: 'H100' },
};
const fleet = { targets: ['http://127.0.0.1:8001', 'http://127.0.0.1:8002'], route: 'least-in-flight' };
const pools = {
  roles: [
    { role: 'prefill', url: 'http://10.0.0.5:8000/metrics', gpus: 2 },
    { role: 'decode', url: 'http://10.0.0.6:8000/metrics', gpus: 6 },
  ],
  kvLinkGbps: 100,
};
const withServer = (server: Record<string, unknown>) => ({ ...minimal, server: { ...minimal.server, ...server } });
const parse = (doc: unknown) => contractSchema.parse(doc);
const refusals = (doc: unknown): string[] => {
  try {
    validateContract(doc, 'c.yaml', '/');
    return [];
  } catch (e) {
    return (e as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
};

describe("a contract's fleet and pools", () => {
  it('leaves a contract without them hashed as before, and keeps their addresses out of the hash but their count, routing, roles, GPUs and link in it', () => {
    // The hash this contract had before fleets and pools existed (goodput at cd260ae).
    expect(contractHash(parse(minimal))).toBe('f8ba964e22d559fb206cf4fd697c0631b30003635ec430ada0855222bf8c0dd5');
    const a = contractHash(parse(withServer({ fleet, pools })));
    const moved = {
      fleet: { ...fleet, targets: ['http://10.1.1.1:9000', 'http://10.1.1.2:9000'] },
      pools: { ...pools, roles: pools.roles.map((r, i) => ({ ...r, url: `http://10.9.9.${i}:1/metrics` })) },
    };
    expect(contractHash(parse(withServer({ ...moved, url: 'http://10.1.1.0:9000' })))).toBe(a);
    for (const changed of [
      { fleet: { ...fleet, route: 'round-robin' }, pools },
      { fleet: { ...fleet, targets: fleet.targets.slice(1) }, pools },
      { fleet, pools: { ...pools, kvLinkGbps: 400 } },
      { fleet, pools: { ...pools, roles: [{ ...pools.roles[0], gpus: 4 }, pools.roles[1]] } },
      { fleet },
      { pools },
    ])
      expect(contractHash(parse(withServer(changed))), JSON.stringify(changed)).not.toBe(a);
    expect(parse(withServer({ fleet: { targets: fleet.targets } })).server.fleet?.route).toBe('round-robin');
  });

  it('refuses, naming the field, a target given twice or as the server, a bad target, too many, an unknown role, and either on embeddings', () => {
    expect(refusals(withServer({ fleet: { targets: ['http://127.0.0.1:8001', 'http://127.0.0.1:8001'] } }))).toEqual([
      'server.fleet.targets[1]: http://127.0.0.1:8001 is given twice (server.url is the first target); each target once',
    ]);
    expect(refusals(withServer({ fleet: { targets: ['http://127.0.0.1:8000'] } }))).toEqual([
      'server.fleet.targets[0]: http://127.0.0.1:8000 is given twice (server.url is the first target); each target once',
    ]);
    expect(refusals(withServer({ fleet: { targets: [] } }))).toEqual([
      'server.fleet.targets: fleet.targets lists the targets besides server.url: at least one',
    ]);
    expect(refusals(withServer({ fleet: { targets: ['ftp://x'] } }))).toEqual([
      'server.fleet.targets[0]: each target must be an http(s) URL, e.g. http://127.0.0.1:8000',
    ]);
    expect(refusals(withServer({ fleet: { targets: ['http://u:p@127.0.0.1:8001'] } }))[0]).toMatch(/^server\.fleet\.targets\[0\]: each target /);
    const many = Array.from({ length: 64 }, (_, i) => `http://127.0.0.1:${9000 + i}`);
    expect(refusals(withServer({ fleet: { targets: many } }))).toEqual([
      'server.fleet.targets: targets (server.url and fleet.targets) 65 is above the limit of 64 targets one run routes its requests over (--url given more than once)',
    ]);
    expect(refusals(withServer({ fleet: { targets: fleet.targets, route: 'random' } }))).toEqual([
      'server.fleet.route: route must be one of round-robin, least-in-flight, session',
    ]);
    expect(refusals(withServer({ pools: { roles: [{ role: 'encode', url: 'http://10.0.0.5:8000/metrics' }] } }))).toEqual([
      "server.pools.roles[0].role: a metrics endpoint's role must be one of prefill, decode, router",
    ]);
    const embeddings = {
      ...withServer({ endpoint: 'embeddings', fleet, pools }),
      workload: { prompts: { kind: 'synthetic', tokens: 64 }, batchSize: 4 },
      slo: { e2eMs: { p: 95, max: 500 } },
    };
    expect(refusals(embeddings)).toEqual([
      'server.fleet: a fleet routes text generation: not for server.endpoint embeddings',
      'server.pools: pools split text generation: not for server.endpoint embeddings',
    ]);
  });

  it("gives the sweep a fleet whose first target is the run's url, and the pools as declared", async () => {
    const prepared = await prepareCells(parse(withServer({ fleet, pools })), { url: 'http://127.0.0.1:7000', runId: 'r', command: 'goodput run c.yaml' });
    const spec = prepared.cells[0]?.spec;
    expect(spec?.fleet).toEqual({ urls: ['http://127.0.0.1:7000', ...fleet.targets], route: 'least-in-flight' });
    expect(spec?.disagg).toEqual(pools);
    const plain = await prepareCells(parse(minimal), { url: 'http://127.0.0.1:7000', runId: 'r', command: 'goodput run c.yaml' });
    expect([plain.cells[0]?.spec.fleet, plain.cells[0]?.spec.disagg]).toEqual([null, null]);
  });
});
