/**
 * What a run stores of its spec when it begins: everything that was asked,
 * never the API key. Each run kind keeps its own fields (stored-kinds.ts
 * names them); the kind comes from the spec's endpoint.
 */
import { hostname } from 'node:os';
import type { RunKindName } from '../core/index.js';
import { type SpecInputOf, kindOfSpec, specSchemaOf } from '../runner/index.js';
import type { BeginRun } from '../store/index.js';
import { storedSpecOf } from './stored-kinds.js';
import { targetKey } from './target-key.js';

/** What beginning a run of `input` (of the kind its endpoint names) in this process records. The spec must already be valid. */
export function beginRunOf(input: SpecInputOf<RunKindName>, server: { id: number; name: string } | null = null): BeginRun {
  const spec = specSchemaOf(input).parse(input);
  return {
    serverId: server?.id ?? null,
    serverName: server?.name ?? null,
    targetUrl: targetKey(spec.url),
    spec: storedSpecOf(kindOfSpec(input), spec),
    ownerPid: process.pid,
    ownerHost: hostname(),
  };
}
