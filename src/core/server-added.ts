/**
 * Words for what a run asked and what the server added. What the tokens a server adds to a prompt (its count less what was sent) are made of, in
 * words: the chat template and BOS always, the tool definitions when the requests offered
 * tools (a chat template renders them into the prompt), images and audio when they carried
 * some. Measured as one surplus, so it is labelled with everything it holds.
 */
import type { LevelResult } from './result-schema.js';

/** "chat template, BOS", then ", tool definitions" and ", images and audio" where the levels carried them. */
export function serverAddedLabel(levels: ReadonlyArray<Pick<LevelResult, 'toolCalls' | 'images' | 'audio'>>): string {
  const parts = ['chat template', 'BOS'];
  if (levels.some((l) => l.toolCalls !== undefined)) parts.push('tool definitions');
  if (levels.some((l) => l.images !== undefined || l.audio !== undefined)) parts.push('images and audio');
  return parts.join(', ');
}

/**
 * The output length a run asked for: "256 output tokens" when forced, "output not forced, cap 256 tokens"
 * when not (tools and JSON schemas end when their answer is complete, so forcing is off).
 */
export function outputAsked(tokens: number, forced: boolean): string {
  return forced ? `${tokens} output tokens` : `output not forced, cap ${tokens} tokens`;
}
