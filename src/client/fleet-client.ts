/**
 * A fleet's client: one streaming client per target behind the one interface
 * the level loops already send through, so nothing upstream knows there are
 * several. Each request picks its target by the run's policy and its record
 * names the target by index. `session` routes by the session id alone, so every
 * client thread sends a session's turns to the same target without talking to
 * the others; `least-in-flight` counts this client's own requests (a level split
 * over client threads balances each thread's share, not the whole).
 */
import type { RequestRecord, RoutePolicy } from '../core/index.js';
import type { PreparedRequest, StreamingClient } from './streaming-client.js';
import type { RequestMeta, RequestSpec } from './types.js';

/** Picks a target for the request with `meta`, given each target's requests in flight. */
export function routeTo(policy: RoutePolicy, meta: Pick<RequestMeta, 'session'>, inFlight: readonly number[], turn: number): number {
  const n = inFlight.length;
  if (policy === 'session' && meta.session !== undefined) return meta.session.id % n;
  if (policy === 'least-in-flight') {
    // Ties go in turn, so an idle fleet is filled evenly rather than from the first target.
    let best = turn % n;
    for (let k = 1; k < n; k++) {
      const i = (turn + k) % n;
      if ((inFlight[i] as number) < (inFlight[best] as number)) best = i;
    }
    return best;
  }
  return turn % n;
}

/** One client over `clients` (a target each, in the run's order), routing by `policy`. */
export function createFleetClient(clients: readonly StreamingClient[], policy: RoutePolicy): StreamingClient {
  const inFlight = clients.map(() => 0);
  let turn = 0;
  return {
    // The target is chosen as the request leaves (least-in-flight reads the fleet then): built ahead, it is only kept.
    prepare: (spec: RequestSpec, meta: RequestMeta): PreparedRequest => ({
      spec,
      meta,
      wire: new Error('built by its target as it leaves'),
      bytes: 0,
      builtNs: 0,
    }),
    async send(request: RequestSpec | PreparedRequest, meta: RequestMeta, signal?: AbortSignal, onEnded?: (endNs: number) => void): Promise<RequestRecord> {
      const spec = 'wire' in request ? request.spec : request;
      const i = routeTo(policy, meta, inFlight, turn++);
      inFlight[i] = (inFlight[i] as number) + 1;
      try {
        const record = await (clients[i] as StreamingClient).send(spec, meta, signal, onEnded);
        return { ...record, target: i };
      } finally {
        inFlight[i] = (inFlight[i] as number) - 1;
      }
    },
    // Every target gets the sockets a level may need of it: a policy may send it all of them.
    async openConnections(n: number): Promise<number> {
      const opened = await Promise.all(clients.map((c) => c.openConnections(n)));
      return Math.min(...opened);
    },
    async close(): Promise<void> {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}
