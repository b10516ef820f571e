/**
 * docs/capabilities.md, whole, from the run-kind table's capability matrix:
 * written by `npm run docs:capabilities`, and a test fails when the file and
 * the matrix disagree, so the page is never edited by hand.
 */
import { capabilityTable, textEndpointTable } from '../core/index.js';

export const CAPABILITIES_DOC = new URL('../../docs/capabilities.md', import.meta.url);

export function capabilitiesDoc(): string {
  return [
    '# What works with each kind of run',
    '',
    '<!-- Generated from the run-kind table (src/core/*-capabilities.ts) by `npm run docs:capabilities`; do not edit. -->',
    '',
    'goodput measures three kinds of traffic (see [architecture](architecture.md)). Every',
    'surface either serves a kind, shown by the test file named, or refuses it with the',
    "reason below, which is what that surface prints. `{endpoint}` stands for the run's",
    'endpoint (`{an endpoint}`: "an embeddings", "a rerank") and `{format}` for the',
    'export format asked for.',
    '',
    capabilityTable(),
    '',
    '## Text generation by endpoint',
    '',
    '<!-- Generated from src/core/text-endpoints.ts. -->',
    '',
    'Text generation speaks four APIs (`--endpoint`; see [providers](providers.md) for the Messages API,',
    'Azure OpenAI, extra headers and body). What each carries, shown by the test file named or refused',
    'before anything is sent with the reason below:',
    '',
    textEndpointTable(),
    '',
  ].join('\n');
}
