/**
 * Counting prompt tokens for the target model. Three kinds, strongest first:
 * a local tokenizer.json, the server's own /tokenize, and a labelled
 * approximation (one whitespace-separated word = one token). The kind used is
 * recorded in the result with whether its counts are exact.
 */
import type { TokenizerInfo } from '../core/index.js';

/** Counts the tokens of a text as the model's tokenizer would, without special tokens. */
export interface TokenCounter {
  info: TokenizerInfo;
  /** Tokens of `text` (no BOS/EOS or chat template tokens). */
  count(text: string): Promise<number>;
  /**
   * Tokens the server's chat template (and BOS) adds around one user message,
   * asked of the server before anything is sent; null when it cannot say.
   * Only a server's own counter has it.
   */
  chatTemplateTokens?(): Promise<number | null>;
}

/** The documented approximation. */
export const APPROXIMATE_LABEL =
  'approximate: one whitespace-separated word counted as one token (the common words used are one token in the main BPE families); not exact';

/** The label of prompts counted in words because the server offered no way to count its tokens. */
export const NO_TOKENIZER_LABEL = 'approximate (words; this server has no tokenizer route)';

export function approximateCounter(): TokenCounter {
  return {
    info: { kind: 'approximate', exact: false, label: APPROXIMATE_LABEL, sha256: null },
    count: (text) => Promise.resolve(text.split(/\s+/).filter((w) => w !== '').length),
  };
}
