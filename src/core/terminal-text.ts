/**
 * Text from a server or a file made safe for a terminal. A model id or an error
 * message is the server's to choose: left raw, it could clear the screen, move the
 * cursor, retitle the window or write the clipboard (OSC 52). Escape sequences are
 * dropped whole; any other control character, and the bidirectional overrides that
 * make text read differently than it is, become U+FFFD so the reader sees that
 * something was there.
 */

// ESC followed by: CSI (… final byte), OSC/DCS/SOS/PM/APC (… BEL or ST), or one more byte.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])?/g;
// C1 CSI and OSC introducers (single-byte forms some terminals honour).
// eslint-disable-next-line no-control-regex -- as above
const C1_SEQUENCE = /[\u009b][0-?]*[ -/]*[@-~]|[\u009d\u0090\u0098\u009e\u009f][^\u0007\u009c]*(?:\u0007|\u009c)?/g;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` without escape sequences or control characters. Tabs are kept; newlines
 * (and CR) become a space unless `keepNewlines` is set, so a one-line message stays
 * one line.
 */
export function sanitizeForTerminal(text: string, opts: { keepNewlines?: boolean } = {}): string {
  const stripped = text.replace(ESCAPE_SEQUENCE, '').replace(C1_SEQUENCE, '');
  const lines = opts.keepNewlines ? stripped.replace(/\r\n?/g, '\n') : stripped.replace(/\r\n|\r|\n/g, ' ');
  return lines.replace(CONTROL, (c) => (c === '\n' ? c : '\uFFFD'));
}
