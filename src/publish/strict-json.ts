/**
 * JSON read strictly: a key stated twice in one object is refused, naming the
 * key and where it is. `JSON.parse` silently keeps the last of two keys, so an
 * edited copy could show one value to a reviewer and publish another.
 */

export type StrictJson = { ok: true; value: unknown } | { ok: false; problem: string };

/** The path of the first duplicated key in `text` ("receipts[0].title"), or null. Assumes `text` is valid JSON. */
function firstDuplicate(text: string): string | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): string | null => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return null;
      }
      for (;;) {
        ws();
        const key = str();
        const here = path === '' ? key : `${path}.${key}`;
        if (seen.has(key)) return here;
        seen.add(key);
        ws();
        i++; // colon
        const d = value(here);
        if (d !== null) return d;
        ws();
        if (text[i++] === '}') return null;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return null;
      }
      for (let n = 0; ; n++) {
        const d = value(`${path}[${n}]`);
        if (d !== null) return d;
        ws();
        if (text[i++] === ']') return null;
      }
    }
    if (c === '"') {
      str();
      return null;
    }
    while (i < text.length && !',]} \t\n\r'.includes(text[i] as string)) i++;
    return null;
  };
  return value('');
}

/** Parses `text`; refuses invalid JSON and any key stated twice in one object. */
export function parseStrictJson(text: string): StrictJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `is not valid JSON (${(err as Error).message})` };
  }
  const dup = firstDuplicate(text);
  if (dup !== null) return { ok: false, problem: `states the key ${dup} twice; a JSON object names each key once [rule: no-duplicate-keys]` };
  return { ok: true, value };
}
