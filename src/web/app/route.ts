/** The page's routes, in the URL hash: the latest run, one run, or two runs compared. */
import { useEffect, useState } from 'preact/hooks';

export type Route = { kind: 'home' } | { kind: 'run'; id: number } | { kind: 'compare'; a: number; b: number };

export function parseRoute(hash: string): Route {
  const run = /^#\/runs\/(\d+)$/.exec(hash);
  if (run) return { kind: 'run', id: Number(run[1]) };
  const cmp = /^#\/compare\/(\d+)\/(\d+)$/.exec(hash);
  if (cmp) return { kind: 'compare', a: Number(cmp[1]), b: Number(cmp[2]) };
  return { kind: 'home' };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export const go = (hash: string) => { location.hash = hash; };
