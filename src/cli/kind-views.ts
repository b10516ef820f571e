/**
 * The command line's kind table: what each run kind shows the CLI (its spec
 * from flags, its progress words, its table), keyed by the run kind's name.
 * A new kind is its view module plus one line here; the compiler refuses a
 * table that misses a kind.
 */
import type { RunKindName } from '../core/index.js';
import type { KindView } from './kind-view.js';
import { POOLING_VIEW } from './pooling-view.js';
import { TEXT_VIEW } from './text-view.js';
import { TRANSCRIPTION_VIEW } from './transcription-view.js';

export const KIND_VIEWS: { readonly [K in RunKindName]: KindView<K> } = {
  text: TEXT_VIEW,
  pooling: POOLING_VIEW,
  transcriptions: TRANSCRIPTION_VIEW,
};

/** The view of kind `kind`; the one place the table is read by a name known only at run time (a flag's or a spec's endpoint). */
export function viewOf<K extends RunKindName>(kind: K): KindView<K> {
  return KIND_VIEWS[kind] as unknown as KindView<K>;
}
