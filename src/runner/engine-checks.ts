/**
 * Checks over a run's records that depend on the engine: a cold run that hit
 * the prefix cache (`cached_tokens` > 0), a cold run whose cache state cannot be
 * verified (the server reports no `cached_tokens`), and synthetic prompts the
 * server saw shorter than sent (Ollama truncates silently to `num_ctx`).
 */
import { isOk, type RequestRecord, type Warning } from '../core/index.js';
import type { Dialect } from '../client/index.js';

/** Below this share of the words sent, a reported prompt was cut by the server. */
const TRUNCATION_SHARE = 0.9;

/** Accumulates measured, successful records level by level; `warnings()` at the end of the run. */
export class EngineChecks {
  private measured = 0;
  private reported = 0;
  private hits = 0;
  private maxCached = 0;
  private maxCachedOf = 0;
  private truncated = 0;
  private shortest: number | null = null;

  /**
   * @param cold the run was meant to be cold (`cache: 'cold'`)
   * @param syntheticWords words of each synthetic prompt (≤ its tokens), or null when prompts come from a list
   */
  constructor(
    private readonly dialect: Dialect,
    private readonly cold: boolean,
    private readonly syntheticWords: number | null,
  ) {}

  add(records: readonly RequestRecord[]): void {
    for (const r of records) {
      if (r.warmup || !isOk(r)) continue;
      this.measured++;
      if (r.cachedPromptTokens !== null) {
        this.reported++;
        if (r.cachedPromptTokens > 0) {
          this.hits++;
          if (r.cachedPromptTokens > this.maxCached) [this.maxCached, this.maxCachedOf] = [r.cachedPromptTokens, r.promptTokens ?? 0];
        }
      }
      if (this.syntheticWords !== null && r.promptTokens !== null && r.promptTokens < this.syntheticWords * TRUNCATION_SHARE) {
        this.truncated++;
        this.shortest = Math.min(this.shortest ?? Infinity, r.promptTokens);
      }
    }
  }

  warnings(): Warning[] {
    const out: Warning[] = [];
    const label = this.dialect.label;
    if (this.cold && this.hits > 0) {
      out.push({
        code: 'cache-hit-on-cold-run',
        message: `${this.hits} of ${this.measured} measured requests reported cached prompt tokens (up to ${this.maxCached} of ${this.maxCachedOf}) although the run was meant to be cold; their prefill was partly skipped`,
      });
    } else if (this.cold && this.measured > 0 && this.reported === 0) {
      const how = this.dialect.usage.cachedTokens;
      const hint = typeof how === 'object' ? ` (${label} reports it when started with ${how.flag})` : how === 'never' ? ` (${label} never reports it)` : '';
      out.push({ code: 'cache-unverified', message: `the server reported no cached_tokens, so the cold cache cannot be verified${hint}` });
    }
    if (this.truncated > 0) {
      out.push({
        code: 'prompt-truncated',
        message: `${this.truncated} requests reported fewer prompt tokens (as few as ${this.shortest}) than the ${this.syntheticWords} words sent: the server cut the prompt (Ollama truncates silently to num_ctx)`,
      });
    }
    return out;
  }
}
