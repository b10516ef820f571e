/**
 * A fleet's flags for text generation: `--url` given more than once, `--route`
 * (the policy), and `--prometheus` with `--selector` → the spec's `url`, `fleet`
 * and `prometheus`, or a message naming the flag. A path given to `--route` is
 * embeddings' and rerank's (the engine's route) and is refused here by name.
 */
import { LIMITS, ROUTE_POLICIES, type RoutePolicy, limitMessage } from '../core/index.js';
import { type SweepSpecInput, sameTargetProblem } from '../runner/index.js';
import { badFlag, parseChoice, parseUrl } from './parse-flags.js';

export interface FleetFlags {
  url: readonly string[];
  route?: string;
  prometheus?: string;
  selector?: string;
  /** False with --no-server-metrics. */
  serverMetrics: boolean;
}

/** The policy `--route` names, refused when it names a path or no fleet was given. */
function routeOf(f: FleetFlags, targets: number): RoutePolicy {
  if (f.route === undefined) return 'round-robin';
  if (f.route.startsWith('/'))
    throw badFlag(
      '--route',
      `'${f.route}' is a path, the engine's route of --endpoint embeddings or rerank; text generation routes a fleet: ${ROUTE_POLICIES.join(', ')}`,
    );
  if (targets < 2) throw badFlag('--route', 'routes requests over a fleet: give --url more than once');
  return parseChoice('--route', f.route, ROUTE_POLICIES);
}

export function fleetFromFlags(f: FleetFlags): Pick<SweepSpecInput, 'url' | 'fleet' | 'prometheus'> {
  // Counted before each is read and compared with every other: a pasted list of thousands is refused at once.
  if (f.url.length > LIMITS.fleetTargets.max) throw badFlag('--url', limitMessage('fleetTargets', f.url.length, 'targets'));
  const urls = f.url.map((u) => parseUrl('--url', u));
  const route = routeOf(f, urls.length);
  const same = sameTargetProblem(urls);
  if (same !== null) throw badFlag('--url', `${same.message}; give each target once`);
  if ((f.prometheus === undefined) !== (f.selector === undefined))
    throw badFlag(f.prometheus === undefined ? '--selector' : '--prometheus', 'needs the other: --prometheus URL --selector \'{job="vllm"}\'');
  if (f.prometheus !== undefined && !f.serverMetrics) throw badFlag('--prometheus', 'cannot be combined with --no-server-metrics');
  const selector = f.selector?.trim();
  if (selector !== undefined && !/^\{.*\}$/s.test(selector)) throw badFlag('--selector', `'${selector}' is not label matchers in braces, e.g. '{job="vllm"}'`);
  return {
    url: urls[0] as string,
    ...(urls.length > 1 ? { fleet: { urls, route } } : {}),
    ...(f.prometheus === undefined ? {} : { prometheus: { url: parseUrl('--prometheus', f.prometheus), selector: selector as string } }),
  };
}
