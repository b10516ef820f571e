/**
 * Free text by allow-list: every string that reaches a page, an image or
 * dataset.json goes through `allowListRefusals`, by its kind. Prose (titles,
 * methods, provider names, what the site does not claim) is letters, spaces
 * and a short punctuation set: no digit of any script, no number word, no
 * unit, no spelled-out address. Names that need digits (a model, a precision,
 * a version, a GPU) are single tokens matched by patterns that cannot carry a
 * claim: they start with a letter and hold no multiple, percentage or rate.
 * Denying tricks one by one loses to the next trick; allowing only what
 * cannot state a figure does not.
 */
import { type Refusal, refusal } from './refusal.js';

export type TextKind = 'prose' | 'name' | 'version' | 'hardware';

// Letters of any script (look-alikes are refused separately), spaces, and short punctuation.
const PROSE_CHARS = /^[\p{L}\p{M} ,.;:'’"“”()\-–—/&!?]*$/u;
// Any numeric character of any script: decimal digits, Roman numerals, fractions, superscripts, circled digits.
const NUMERIC = /\p{N}/u;

const NUMBER_WORDS = [
  // Not "one": "one model on one GPU" states no figure.
  'zero',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
  'hundred',
  'hundreds',
  'thousand',
  'thousands',
  'million',
  'millions',
  'billion',
  'dozen',
  'dozens',
  'half',
  'halved',
  'halves',
  'halving',
  'twice',
  'thrice',
  'double',
  'doubled',
  'doubles',
  'doubling',
  'triple',
  'tripled',
  'triples',
  'quadruple',
  'quadrupled',
  'tenfold',
  'hundredfold',
  'fold',
  'percent',
  'percentage',
  'pct',
  'quarter',
  'third',
  'thirds',
  'magnitude',
  'magnitudes',
];
const UNIT_WORDS = [
  'ms',
  'msec',
  'sec',
  'secs',
  'seconds',
  'tps',
  'rps',
  'qps',
  'tok',
  'toks',
  'usd',
  'eur',
  'gbp',
  'dollar',
  'dollars',
  'cent',
  'cents',
  'euro',
  'euros',
  'gb',
  'gib',
  'mb',
  'mib',
  'tb',
  'kb',
  'watt',
  'watts',
  'kw',
  'kwh',
];
const WORDS = new Set([...NUMBER_WORDS, ...UNIT_WORDS]);
// Addresses spelled out in words: "example dot com", "ten dot zero", "localhost".
const SPELLED_ADDRESS = /\b(?:dot|colon)\s+(?:com|net|org|io|ai|dev|internal|local|lan|corp)\b|\blocalhost\b/i;

/** A name token: starts with a letter, letters and digits joined by - _ . / :, with no multiple, percentage or rate segment. */
const NAME = /^[A-Za-z][A-Za-z0-9]*(?:[-_./:][A-Za-z0-9]+)*$/;
const VERSION = /^v?\d{1,4}(?:\.\d{1,6}){0,3}(?:[.-]?(?:post|dev|rc|a|b|alpha|beta)\d{0,4})?(?:\+[A-Za-z0-9.]{1,40})?$/;
// A segment that states a figure: "3x", "3.2x", "40pct", "240tps", "10ms" (but not "8B", "fp8", "H100", "80GB").
const CLAIM_SEGMENT = /^\d+(?:[x×]|pct|percent|tps|rps|qps|ms|s|usd|eur|times|fold)$/i;

/** A token with a digit inside prose must be a name ("FP8", "Llama-3.1-8B") that states no figure. */
function proseToken(token: string): string | null {
  const bare = token.replace(/^[("“']+|[)"”',.;:!?]+$/g, '');
  if (!/\d/.test(bare)) return null;
  if (!NAME.test(bare) || /^[x×]\d/i.test(bare))
    return `holds ${JSON.stringify(bare.slice(0, 40))}; a figure in prose is a claim only the evidence may make (names like FP8 start with a letter)`;
  const claim = bare.split(/[-_./:]/).find((seg) => CLAIM_SEGMENT.test(seg));
  return claim === undefined ? null : `holds ${JSON.stringify(bare.slice(0, 40))}, which carries a figure (${JSON.stringify(claim)})`;
}

function proseProblem(text: string): string | null {
  for (const t of text.split(/\s+/)) {
    const p = proseToken(t);
    if (p !== null) return p;
  }
  const rest = text
    .split(/\s+/)
    .filter((t) => !/\d/.test(t))
    .join(' ');
  const num = NUMERIC.exec(rest);
  if (num) return `holds the numeral ${JSON.stringify(num[0])}; every figure on a receipt comes from its evidence, so prose holds no digits of any script`;
  const bad = [...rest].find((ch) => !PROSE_CHARS.test(ch));
  if (bad !== undefined) return `holds ${JSON.stringify(bad)}; prose is letters, spaces and , . ; : ' " ( ) - / & ! ? only`;
  const word = rest
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .find((w) => WORDS.has(w));
  if (word !== undefined) return `holds ${JSON.stringify(word)}, a number or unit in words; every figure comes from the evidence`;
  const addr = SPELLED_ADDRESS.exec(rest);
  if (addr) return `spells out an address (${JSON.stringify(addr[0])})`;
  return null;
}

function tokenProblem(token: string, kind: Exclude<TextKind, 'prose'>): string | null {
  if (kind === 'version' && VERSION.test(token)) return null;
  if (kind === 'version' && !NAME.test(token)) return `${JSON.stringify(token.slice(0, 40))} is not a version (digits and dots, an optional post/dev/rc tag)`;
  if (!NAME.test(token)) return `${JSON.stringify(token.slice(0, 40))} is not a name token (a letter first, then letters and digits joined by - _ . / :)`;
  const claim = token.split(/[-_./:]/).find((seg) => CLAIM_SEGMENT.test(seg));
  if (claim !== undefined) return `${JSON.stringify(token.slice(0, 40))} carries a figure (${JSON.stringify(claim)})`;
  if (WORDS.has(token.toLowerCase()) && !(kind === 'hardware' && /^(gb|gib|tb)$/i.test(token))) return `${JSON.stringify(token)} is a number or unit in words`;
  return null;
}

/**
 * A hardware label may open with its GPU count ("8× H100", "2 x A100"): the
 * configuration as declared, which per-GPU figures divide by, not a claim
 * about it. Only there, only before a name; "H100 3x" stays refused.
 */
const GPU_COUNT_PREFIX = /^\s*\d{1,4}\s*[x×]\s*(?=[A-Za-z])/;

/** Why `text` of this kind could carry a claim, or null. Hardware and names may be several tokens; a version is one. */
export function allowListProblem(text: string, kind: TextKind): string | null {
  if (kind === 'prose') return proseProblem(text);
  const tokens = (kind === 'hardware' ? text.replace(GPU_COUNT_PREFIX, '') : text)
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  const memory = (t: string) => kind === 'hardware' && /^\d{1,4}(?:GB|GiB|TB)$/.test(t);
  // An engine's /version may name itself first ("goodput-sim 0.1.0").
  if (kind === 'version' && tokens.length > 3) return 'a version is at most three tokens';
  if (tokens.length > 8) return 'a name is at most eight tokens';
  for (const t of tokens) {
    // Words in a name (a GPU's "SXM", an engine's "Instruct") are prose words: no number words among them.
    if (memory(t)) continue;
    const p = /^[A-Za-z]+$/.test(t)
      ? WORDS.has(t.toLowerCase()) && !(kind === 'hardware' && /^(gb|gib|tb)$/i.test(t))
        ? `${JSON.stringify(t)} is a number or unit in words`
        : null
      : tokenProblem(t, kind);
    if (p !== null) return p;
  }
  return null;
}

/** The refusal for one field, under the rule `allow-list`, or none; `exempt` are names checked as names (a model, a GPU) that prose may quote. */
export function allowListRefusals(field: string, text: string, kind: TextKind, exempt: readonly string[] = []): Refusal[] {
  const p = allowListProblem(
    exempt.reduce((t, w) => (w === '' ? t : t.split(w).join(' ')), text),
    kind,
  );
  return p === null ? [] : [refusal('allow-list', field, p)];
}

/**
 * A changelog title carried over from an older site, whose receipt is no
 * longer published, so the names it quotes are not known: prose, or the
 * default title's shape (model on hardware: method) with each part checked
 * by its own kind.
 */
export function carriedTitleRefusals(field: string, title: string): Refusal[] {
  const prose = allowListProblem(title, 'prose');
  if (prose === null) return [];
  const parts = /^(\S+) on ([^:]+): (.+)$/.exec(title);
  const asDefault =
    parts === null
      ? 'is not the default title (model on hardware: method)'
      : (allowListProblem(parts[1] as string, 'name') ?? allowListProblem(parts[2] as string, 'hardware') ?? allowListProblem(parts[3] as string, 'prose'));
  return asDefault === null ? [] : [refusal('allow-list', field, prose)];
}
