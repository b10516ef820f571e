/**
 * One run as the page shows it: its stored detail, and while it runs, the
 * live state from its event stream (levels as they finish, the level in
 * flight, warnings) plus what the status region should announce.
 */
import { useEffect, useState } from 'preact/hooks';
import type { LevelProgress } from '../../api/index.js';
import type { LevelResult, PoolingLevel, Warning } from '../../core/index.js';
import type { RunDetail } from '../../store/index.js';
import { num } from '../view/index.js';
import { api, followRun } from './api.js';

export interface Live {
  levels: LevelResult[];
  current: LevelProgress | null;
  warnings: Warning[];
  /** An embeddings or rerank run's finished levels. */
  poolingLevels?: PoolingLevel[];
}

export interface RunState {
  run: RunDetail | null;
  live: Live | null;
  /** The last level completion or the run's end (its stop reason is the banner's), for the role="status" region. */
  announcement: string;
  error: string | null;
}

export function useRun(id: number, onEnded: () => void): RunState {
  const [state, setState] = useState<RunState>({ run: null, live: null, announcement: '', error: null });
  useEffect(() => {
    let stopFollowing: (() => void) | null = null;
    let gone = false;
    const load = async () => {
      try {
        const run = await api.run(id);
        if (gone) return;
        setState((s) => ({
          ...s,
          run,
          error: null,
          live:
            run.status === 'running'
              ? (s.live ?? { levels: run.levels, current: null, warnings: run.warnings, ...(run.pooling ? { poolingLevels: run.pooling.levels } : {}) })
              : null,
        }));
        if (run.status === 'running' && stopFollowing === null) stopFollowing = followRun(id, onEvent);
      } catch (e) {
        if (!gone) setState((s) => ({ ...s, error: (e as Error).message }));
      }
    };
    const onEvent = (e: Parameters<Parameters<typeof followRun>[1]>[0]) => {
      setState((s) => {
        const live = s.live ?? { levels: [], current: null, warnings: [] };
        switch (e.kind) {
          case 'snapshot':
            return {
              ...s,
              live: {
                levels: e.state.levels,
                current: e.state.current,
                warnings: e.state.warnings,
                ...(e.state.poolingLevels ? { poolingLevels: e.state.poolingLevels } : {}),
              },
            };
          case 'level-start':
          case 'progress':
            return { ...s, live: { ...live, current: e.progress } };
          case 'level-end': {
            const l = e.level;
            const said = `Level ${l.concurrency} finished: ${num(l.throughputTokS)} tok/s, ${l.failed} failed${l.invalid ? ' — invalid' : ''}.`;
            return { ...s, live: { ...live, current: null, levels: [...live.levels.filter((x) => x.concurrency !== l.concurrency), l] }, announcement: said };
          }
          case 'pooling-level-end': {
            const l = e.level;
            const said = `Level ${l.concurrency} finished: ${num(l.itemsPerS)} items/s, ${l.failed} failed.`;
            return {
              ...s,
              live: { ...live, current: null, poolingLevels: [...(live.poolingLevels ?? []).filter((x) => x.concurrency !== l.concurrency), l] },
              announcement: said,
            };
          }
          case 'warning':
            return { ...s, live: { ...live, warnings: [...live.warnings, e.warning] } };
          // The reason is shown once, in the run's banner below; the status line names only the outcome.
          case 'end':
            return { ...s, announcement: e.reason ? `Run ${e.status}: the reason is shown below.` : `Run ${e.status}.` };
        }
      });
      if (e.kind === 'end') {
        stopFollowing = null;
        void load().then(onEnded);
      }
    };
    setState({ run: null, live: null, announcement: '', error: null });
    void load();
    return () => {
      gone = true;
      stopFollowing?.();
    };
  }, [id]);
  return state;
}
