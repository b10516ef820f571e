/** workload/: what is sent and when — prompts, tokenizers, corpora, matrices, arrival patterns. */
export { COMMON_WORDS, syntheticPrompt } from './synthetic-prompt.js';
export { arrivalOps, poissonOffsetsNs, constantOffsetsNs, burstOffsetsNs, OPEN_LOOP_SOCKET_LIMIT, type LevelPlan } from './arrival.js';
export { promptSourceSchema, promptFor, outputCapAt, type PromptSource, type PromptRequest } from './prompt-source.js';
export { WorkloadError, type WorkloadErrorCode } from './errors.js';
export { sha256Hex, readHashed } from './content-hash.js';
export { APPROXIMATE_LABEL, NO_TOKENIZER_LABEL, approximateCounter, type TokenCounter } from './token-counter.js';
export { loadTokenizerFile } from './tokenizer-file.js';
export { serverCounter, tokenizeUrl, TOKENIZE_SHAPES } from './tokenizer-server.js';
export { resolveTokenizer, type TokenizerChoice, type TokenizerServer } from './resolve-tokenizer.js';
export { exactPrompt } from './exact-prompt.js';
export { loadCorpus, type Corpus, type CorpusFormat, type CorpusItem } from './corpus.js';
export { seededSample } from './sample.js';
export { buildCellPrompts, sharedPrefix, type CacheCondition, type CellPromptPlan, type CellSource, type PromptItem } from './cell-prompts.js';
export { expandMatrix, MATRIX_ORDER, type CellSpec, type MatrixAxes, type PromptAxis } from './matrix-cells.js';
export { readTrace, parseWindow, type Trace } from './trace-read.js';
export { replayParts, DEFAULT_BLOCK_TOKENS } from './trace-replay.js';
export { loadShareGpt, sessionUserText, syntheticSessions, turnsOf, type Range, type Session, type SessionsSource } from './sessions.js';
