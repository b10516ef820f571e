/**
 * The page's routes, in the URL hash: the latest run, one run, or 2–8 runs
 * compared (the first is the baseline), each a stored run or a repeat set of
 * stored runs of one contract (#/compare/1+2+3/4+5+6).
 */
import { useEffect, useState } from 'preact/hooks';
import { COMPARE_MAX_RUNS, COMPARE_MIN_RUNS } from '../view/index.js';

export type Route = { kind: 'home' } | { kind: 'run'; id: number } | { kind: 'compare'; sets: number[][] };

export function parseRoute(hash: string): Route {
  const run = /^#\/runs\/(\d+)$/.exec(hash);
  if (run) return { kind: 'run', id: Number(run[1]) };
  const cmp = /^#\/compare\/(\d+(?:\+\d+)*(?:\/\d+(?:\+\d+)*)*)$/.exec(hash);
  const given = cmp ? (cmp[1] as string).split('/').map((seg) => seg.split('+').map(Number)) : [];
  // Single runs named twice are shown once (the history's links); a run repeated in a set is the view's refusal to make.
  const sets = given.every((s) => s.length === 1) ? [...new Set(given.map((s) => s[0] as number))].map((id) => [id]) : given;
  if (sets.length >= COMPARE_MIN_RUNS && sets.length <= COMPARE_MAX_RUNS) return { kind: 'compare', sets };
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

export const go = (hash: string) => {
  location.hash = hash;
};
