/**
 * A contract's server in parts: a fleet (`server.fleet`: the targets besides
 * `server.url` and how each request picks one, as `goodput sweep --url … --url
 * … --route` takes them) and a disaggregated server's pools (`server.pools`:
 * each role's metrics endpoint, its GPUs and the KV link, as `--metrics-url
 * ROLE=URL --pool-gpus --kv-link-gbps` take them). Their addresses say where,
 * as `server.url` does, and are left out of the hash; how many targets there
 * are, the routing, and each pool's role and GPUs and the link define the
 * experiment and are hashed. Both are optional, so a contract without them
 * hashes as before.
 */
import { z } from 'zod';
import { LIMITS, ROUTE_POLICIES, disaggSpecSchema, limitMessage, urlCredentialProblem } from '../core/index.js';

/** An http(s) address of a server, with no credentials in it: `field` names it in each refusal. */
export const serverUrlSchema = (field: string) =>
  z
    .url({ protocol: /^https?$/, error: `${field} must be an http(s) URL, e.g. http://127.0.0.1:8000` })
    .refine((u) => urlCredentialProblem(u) === null, { error: (i) => `${field} ${urlCredentialProblem(String(i.input))}` });

/** The targets besides `server.url` (a fleet: the run sends to all of them) and the routing policy. */
export const fleetContractSchema = z
  .object({
    targets: z
      .array(serverUrlSchema('each target'))
      .min(1, 'fleet.targets lists the targets besides server.url: at least one')
      .max(LIMITS.fleetTargets.max - 1, {
        error: (i) => limitMessage('fleetTargets', (i.input as unknown[]).length + 1, 'targets (server.url and fleet.targets)'),
      }),
    route: z.enum(ROUTE_POLICIES, { error: `route must be one of ${ROUTE_POLICIES.join(', ')}` }).default('round-robin'),
  })
  .strict();

/** A disaggregated server's pools: the sweep's own spec, so a contract and `--metrics-url ROLE=URL` mean one thing. */
export const poolsContractSchema = disaggSpecSchema;

interface ServerView {
  url: string;
  endpoint: string;
  fleet?: z.output<typeof fleetContractSchema> | undefined;
  pools?: z.output<typeof poolsContractSchema> | undefined;
}

/** A fleet's targets are distinct and not the server's own; fleets and pools are text generation's. */
export function serverPartsIssues(server: ServerView, ctx: z.RefinementCtx): void {
  const add = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path: ['server', ...path], message });
  const pooled = server.endpoint === 'embeddings' || server.endpoint === 'rerank';
  if (pooled && server.fleet !== undefined) add(['fleet'], `a fleet routes text generation: not for server.endpoint ${server.endpoint}`);
  if (pooled && server.pools !== undefined) add(['pools'], `pools split text generation: not for server.endpoint ${server.endpoint}`);
  const seen = new Set([server.url]);
  server.fleet?.targets.forEach((t, i) => {
    if (seen.has(t)) add(['fleet', 'targets', i], `${t} is given twice (server.url is the first target); each target once`);
    seen.add(t);
  });
}

/** The server's parts as the hash sees them: the count of targets and the routing, each pool's role and GPUs and the link, no address. */
export function hashedServerParts(server: Pick<ServerView, 'fleet' | 'pools'>): object {
  const { fleet, pools } = server;
  return {
    ...(fleet === undefined ? {} : { fleet: { targets: fleet.targets.length, route: fleet.route } }),
    ...(pools === undefined ? {} : { pools: { roles: pools.roles.map(({ url: _url, ...r }) => r), kvLinkGbps: pools.kvLinkGbps } }),
  };
}
