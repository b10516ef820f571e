/** The page's routes, in the URL hash: the latest run, one run, or 2–8 runs compared (the first is the baseline). */
import { useEffect, useState } from 'preact/hooks';
import { COMPARE_MAX_RUNS, COMPARE_MIN_RUNS } from '../view/index.js';

export type Route = { kind: 'home' } | { kind: 'run'; id: number } | { kind: 'compare'; ids: number[] };

export function parseRoute(hash: string): Route {
  const run = /^#\/runs\/(\d+)$/.exec(hash);
  if (run) return { kind: 'run', id: Number(run[1]) };
  const cmp = /^#\/compare\/(\d+(?:\/\d+)*)$/.exec(hash);
  const ids = cmp ? [...new Set((cmp[1] as string).split('/').map(Number))] : [];
  if (ids.length >= COMPARE_MIN_RUNS && ids.length <= COMPARE_MAX_RUNS) return { kind: 'compare', ids };
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
