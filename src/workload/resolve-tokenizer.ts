/**
 * Picks the token counter a contract asks for: a tokenizer.json file, the
 * server's /tokenize, the labelled approximation, or `auto` (the server's when
 * it has one, else the approximation, labelled with why).
 */
import { WorkloadError } from './errors.js';
import { NO_TOKENIZER_LABEL, type TokenCounter, approximateCounter } from './token-counter.js';
import { loadTokenizerFile } from './tokenizer-file.js';
import { serverCounter } from './tokenizer-server.js';

export type TokenizerChoice = { kind: 'file'; path: string } | { kind: 'server' } | { kind: 'approximate' } | { kind: 'auto' };

/** The server the counts are for. */
export interface TokenizerServer {
  url: string;
  model: string;
  apiKey?: string;
}

/** @throws WorkloadError when a file cannot be used, or `server` was required and the server has no /tokenize */
export async function resolveTokenizer(choice: TokenizerChoice, server: TokenizerServer): Promise<TokenCounter> {
  switch (choice.kind) {
    case 'file':
      return loadTokenizerFile(choice.path);
    case 'approximate':
      return approximateCounter();
    case 'server': {
      const s = await serverCounter(server.url, server.model, server.apiKey);
      if (!s.ok) throw new WorkloadError('tokenizer', `tokenizer: the contract asks for the server's tokenizer, but ${s.reason}`);
      return s.counter;
    }
    case 'auto': {
      const s = await serverCounter(server.url, server.model, server.apiKey);
      if (s.ok) return s.counter;
      const approx = approximateCounter();
      return { ...approx, info: { ...approx.info, label: `${NO_TOKENIZER_LABEL}: ${s.reason}` } };
    }
  }
}
