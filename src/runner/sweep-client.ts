/**
 * The client a text sweep sends through, wherever it sends from (this thread,
 * a client thread, a worker process): one streaming client for one target, or
 * a fleet's client over one per target (`fleet`), each speaking the same
 * dialect with the same key, headers, timeouts and retries.
 */
import { type StreamingClient, type StreamingClientOptions, createFleetClient, createStreamingClient } from '../client/index.js';
import { type SweepSpec, targetOf } from './sweep-spec.js';

/** The sweep's client: `spec.url` alone, or every target of its fleet routed by its policy. */
export function sweepClient(spec: SweepSpec, opts: StreamingClientOptions): StreamingClient {
  if (spec.fleet === null) return createStreamingClient(targetOf(spec), opts);
  return createFleetClient(
    spec.fleet.urls.map((url) => createStreamingClient(targetOf({ ...spec, url }), opts)),
    spec.fleet.route,
  );
}

/** Every target the sweep sends to, in order: the fleet's, else `url` alone. */
export function targetUrls(spec: Pick<SweepSpec, 'url' | 'fleet'>): string[] {
  return spec.fleet === null ? [spec.url] : spec.fleet.urls;
}
