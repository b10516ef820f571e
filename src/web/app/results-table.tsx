/**
 * The results table (web/view/markup.ts): a real <table> with a caption and
 * header cells, the seed's columns in order, concurrency as the row header,
 * an invalid level's averages greyed with the reason, a non-zero Failed count
 * in bold red, inside a frame that scrolls sideways when the window is narrow.
 */
import type { LevelResult } from '../../core/index.js';
import type { RunSpec } from '../../store/index.js';
import { type LiveLevel, html, resultsTableMarkup, tableCaption } from '../view/index.js';
import { Markup } from './markup.js';

interface Props {
  levels: readonly LevelResult[];
  spec: RunSpec;
  /** Levels still to come while the run is live. */
  planned?: readonly number[];
  live?: LiveLevel | null;
}

export function ResultsTable({ levels, spec, planned = [], live = null }: Props) {
  return <Markup html={resultsTableMarkup({ levels, planned, live, caption: html`${tableCaption(spec, levels)}` })} />;
}
