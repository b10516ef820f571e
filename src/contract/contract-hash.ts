/**
 * The contract's identity: sha256 of its canonical JSON with the fields that
 * say where (server.url, server.apiKeyEnv, server.imageBaseUrl, a fleet's targets and the pools' metrics endpoints, quality.baselineUrl, the paths of hashed files: tokenizer, corpus, trace) left out. Two runs of the same
 * experiment against servers at different addresses share a hash; any change
 * to what is measured (including corpus or tokenizer content, via their hashes)
 * changes it.
 */
import { canonicalJson } from '../core/index.js';
import { sha256Hex } from '../workload/index.js';
import type { Contract } from './contract-schema.js';
import { hashedServerParts } from './server-parts.js';

/** A file known by its content hash is the same file wherever it lies: its path is a location too. */
function byContent<T extends object>(file: T): T | Omit<T, 'path'> {
  if (!('sha256' in file) || typeof file.sha256 !== 'string' || !('path' in file)) return file;
  const { path: _path, ...rest } = file;
  return rest;
}

/** The contract without its location fields (server address, and the paths of files whose content hash it carries). */
export function hashedPart(c: Contract): object {
  const { url: _url, apiKeyEnv: _key, imageBaseUrl: _images, fleet, pools, ...server } = c.server;
  // Where the quality baseline answers is a location too; that the score is measured in the run is part of the experiment.
  const { baselineUrl, ...quality } = c.quality;
  return {
    ...c,
    // A fleet's and the pools' addresses are locations; their count, routing, roles and GPUs are the experiment.
    server: { ...server, ...hashedServerParts({ fleet, pools }) },
    quality: baselineUrl === undefined ? quality : { ...quality, measuredInRun: true },
    model: { ...c.model, tokenizer: byContent(c.model.tokenizer) },
    workload: { ...c.workload, prompts: byContent(c.workload.prompts) },
    load: { ...c.load, pattern: byContent(c.load.pattern) },
  };
}

/** sha256 (hex) of the canonical contract without its location. */
export function contractHash(c: Contract): string {
  return sha256Hex(canonicalJson(hashedPart(c)));
}
