/**
 * The parsers of the options whose value is a text with its own grammar
 * (`--rate-limit rpm=60,tpm=90000`, `--lora sql-lora=3,chat-lora=1`), keyed by
 * the option's key. The command line and the API's start body (body value
 * 'parsed' in the option catalogue) both read such a text here, so a value one
 * takes the other takes, refused in the same words. Kept apart from the
 * catalogue, which is pure data the page reads without these parsers.
 */
import { LIMITS } from './limits.js';
import { type LoraAdapter, parseLoraMix } from './lora-mix.js';
import { type RatePacing, parseRatePacing } from './rate-pacing.js';

/** A parsed option's value, or the sentence that says what is wrong with its text. */
export type ParsedText<T> = { ok: true; value: T } | { ok: false; message: string };

interface OptionParser<T> {
  /** The longest text read (past any real value: a bound before the parser runs). */
  maxChars: number;
  parse(text: string): ParsedText<T>;
}

/** The weight's characters a mix's entry may take beside its name and `=` (1000000.5 and a comma, with room). */
const WEIGHT_CHARS = 24;

export const OPTION_PARSERS = {
  rateLimit: {
    maxChars: 200,
    parse(text: string): ParsedText<RatePacing> {
      const p = parseRatePacing(text);
      return p.ok ? { ok: true, value: p.pacing } : p;
    },
  },
  lora: {
    maxChars: LIMITS.loraAdapters.max * (LIMITS.loraNameChars.max + WEIGHT_CHARS),
    parse(text: string): ParsedText<LoraAdapter[]> {
      const p = parseLoraMix(text);
      return p.ok ? { ok: true, value: p.mix } : p;
    },
  },
} as const satisfies Record<string, OptionParser<unknown>>;

export type ParsedOptionKey = keyof typeof OPTION_PARSERS;
/** What the option stored under `K` reads its text as. */
export type ParsedValue<K extends ParsedOptionKey> = Extract<ReturnType<(typeof OPTION_PARSERS)[K]['parse']>, { ok: true }>['value'];

/** The text of the option stored under `key`, read by its parser (bounded first by its length). */
export function parseOptionText<K extends ParsedOptionKey>(key: K, text: string): ParsedText<ParsedValue<K>> {
  const parser: OptionParser<unknown> = OPTION_PARSERS[key];
  if (text.length > parser.maxChars) return { ok: false, message: `${text.length} characters is more than the ${parser.maxChars} it takes` };
  return parser.parse(text) as ParsedText<ParsedValue<K>>;
}

/** The parser of the option stored under `key`; throws for an option declared 'parsed' with none here (a programming error). */
export function optionParser(key: string): OptionParser<unknown> {
  const parser = (OPTION_PARSERS as Record<string, OptionParser<unknown>>)[key];
  if (parser === undefined) throw new Error(`option ${key} is read as a parsed text but has no parser in core/option-parsers.ts`);
  return parser;
}
