/**
 * The only words a receipt's author types (title, each configuration's method)
 * reach public pages, dataset.json and share images verbatim, so they are
 * checked: bounded length, printable characters only, no look-alike letters,
 * no internal identifiers, and no numbers with units — every number on a
 * receipt comes from the evidence, never from prose.
 */
import { type Refusal, refusal } from './refusal.js';

export const TEXT_LIMITS = { title: 120, method: 300 } as const;

// C0/C1 controls, soft hyphen, zero-width and bidirectional marks, word joiners, variation selectors, the BOM.
const INVISIBLE: ReadonlyArray<[number, number]> = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
];

/** The first invisible or control character and its offset, or null. */
function firstInvisible(text: string): { code: number; at: number } | null {
  let at = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (INVISIBLE.some(([lo, hi]) => code >= lo && code <= hi)) return { code, at };
    at += ch.length;
  }
  return null;
}
// Letters of scripts whose glyphs pass for Latin ones (Greek, Cyrillic, Armenian, Cherokee), and Latin look-alike blocks.
const LOOKALIKE = /[\u0370-\u03ff\u0400-\u052f\u0531-\u058f\u13a0-\u13ff\u1d00-\u1dbf\u2100-\u214f\u2c00-\u2c7f\ua640-\ua69f\uff00-\uffef\u{1d400}-\u{1d7ff}]/u;

const IDENTIFIERS: ReadonlyArray<[RegExp, string]> = [
  [/\b[a-z][a-z0-9+.-]*:\/\//i, 'a URL'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/, 'an IP address'],
  [/\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\b/i, 'an IPv6 address'],
  [/\b[a-z0-9][a-z0-9_.-]*:\d{2,5}\b/i, 'a host:port'],
  [
    /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:local|localdomain|internal|intranet|lan|corp|home|prod|staging|svc|cluster|private|priv|dev|test|example|com|net|org|io|ai|cloud)\b/i,
    'a hostname',
  ],
  [/\b(?:gpu|node|host|server|srv|worker|pod|box|vm|ip)[-_]?\d+\b/i, 'a machine name'],
  [/\b(?:sk|pk|rk)-[a-z0-9_-]{8,}/i, 'an API key'],
  [/\bhf_[a-z0-9]{8,}/i, 'a Hugging Face token'],
  [/\b(?:ghp|gho|ghu|ghs|github_pat|glpat|xox[abpr])[-_][a-z0-9_-]{8,}/i, 'an access token'],
  [/\bAKIA[0-9A-Z]{12,}\b/, 'a cloud access key'],
  [/\bbearer\s+\S+/i, 'a bearer token'],
  [/\b[0-9a-f]{32,}\b|[a-z0-9+/_-]{40,}/i, 'a long secret-like string'],
];

// A number with a unit, a percentage, a multiple, or a currency amount: a claim only the evidence may make.
const NUMERIC_CLAIM = new RegExp(
  [
    String.raw`\d[\d,.]*\s*(?:%|percent\b|×|x\b|times\b|fold\b)`,
    String.raw`[$€£¥]\s*\d`,
    String.raw`\d[\d,.]*\s*(?:ms|s|sec|secs|seconds?|minutes?|hours?|h|us|µs|tok\/s|tokens?(?:\/s)?|req\/s|rps|qps|usd|dollars?|cents?|eur|[kmg]i?b|[kmgt]b\/s|w|watts?)\b`,
  ].join('|'),
  'i',
);

/**
 * Refusals for one free-text field; `field` names it ("title", "configurations.optimized.method").
 * `exempt` are words from the evidence (a model name, a hardware label) whose figures are not the author's claims.
 */
export function textRefusals(field: string, text: string, max: number, exempt: readonly string[] = []): Refusal[] {
  const out: Refusal[] = [];
  if (text.trim() === '') out.push(refusal('text-length', field, 'is empty'));
  if (text.length > max) out.push(refusal('text-length', field, `is ${text.length} characters, above the limit of ${max}`));
  const control = firstInvisible(text);
  if (control)
    out.push(
      refusal(
        'no-control-characters',
        field,
        `holds the invisible or control character U+${control.code.toString(16).toUpperCase().padStart(4, '0')} at offset ${control.at}`,
      ),
    );
  const look = LOOKALIKE.exec(text);
  if (look)
    out.push(
      refusal(
        'no-confusables',
        field,
        `holds ${JSON.stringify(look[0])} (U+${(look[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}), a character that passes for a Latin letter or digit`,
      ),
    );
  else if (text.normalize('NFKC') !== text)
    out.push(refusal('no-confusables', field, 'holds compatibility characters (its NFKC form differs); write it in plain characters'));
  for (const [pattern, what] of IDENTIFIERS) {
    const m = pattern.exec(text);
    if (m) {
      out.push(
        refusal(
          'no-internal-identifiers',
          field,
          `holds ${what} (${JSON.stringify(m[0].slice(0, 40))}); a public receipt names no machine, address, bucket or credential`,
        ),
      );
      break;
    }
  }
  const claim = NUMERIC_CLAIM.exec(exempt.reduce((t, w) => (w === '' ? t : t.split(w).join(' ')), text));
  if (claim)
    out.push(
      refusal(
        'no-numeric-claims',
        field,
        `claims a figure (${JSON.stringify(claim[0])}); every number on a receipt is computed from its evidence, so the text states none`,
      ),
    );
  return out;
}
