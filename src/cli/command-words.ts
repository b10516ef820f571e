/**
 * A server command given as one string (`goodput coldstart --cmd '…'`) split
 * into argv without a shell: words are separated by spaces and tabs; single
 * quotes keep everything inside them literally; double quotes keep everything
 * but `\"` and `\\`; a backslash outside quotes keeps the next character. No
 * variable, glob, pipe or redirection is expanded, so a shell operator outside
 * quotes is refused rather than passed on as a word that looks like one.
 */
import { LIMITS } from '../core/index.js';

/** argv, or why the text is not a command. */
export type CommandWords = { ok: true; argv: string[] } | { ok: false; message: string };

const OPERATORS = new Set(['|', '&', ';', '<', '>', '`', '$', '(', ')']);

export function commandWords(text: string): CommandWords {
  const argv: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i] as string;
      else word += ch;
    } else if (ch === ' ' || ch === '\t') {
      if (word !== null) argv.push(word);
      word = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (ch === '\\') {
      if (i + 1 >= text.length) return { ok: false, message: 'ends in a backslash with nothing after it' };
      word = (word ?? '') + (text[++i] as string);
    } else if (OPERATORS.has(ch)) {
      return {
        ok: false,
        message: `'${ch}' is a shell operator, and the command runs without a shell: quote it to pass it as a word, or start the server from a script`,
      };
    } else if (ch === '\n' || ch === '\r' || ch.charCodeAt(0) < 0x20) {
      return { ok: false, message: 'holds a control character' };
    } else word = (word ?? '') + ch;
  }
  if (quote !== null) return { ok: false, message: `has an unclosed ${quote === "'" ? 'single' : 'double'} quote` };
  if (word !== null) argv.push(word);
  if (argv.length === 0) return { ok: false, message: 'is empty: give the command that starts the server' };
  if (argv.length > LIMITS.commandArgs.max)
    return { ok: false, message: `has ${argv.length} words, above the limit of ${LIMITS.commandArgs.max} ${LIMITS.commandArgs.what}` };
  return { ok: true, argv };
}
