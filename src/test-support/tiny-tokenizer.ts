/**
 * Small real tokenizer.json files generated for tests (never downloaded): a
 * byte-level BPE in the GPT-2/Llama-3 style whose merges make some common words
 * one token after a space and leave the rest several tokens. It loads with
 * @huggingface/tokenizers like any model's tokenizer.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** GPT-2's byte → printable character table. */
function bytesToUnicode(): string[] {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  const table: string[] = new Array<string>(256);
  bs.forEach((b, i) => {
    table[b] = String.fromCharCode(cs[i] as number);
  });
  return table;
}

/** A byte-level BPE: every word of `merged` becomes one token after a space ("Ġword"); others stay split. */
export function byteLevelBpe(merged: readonly string[]): object {
  const table = bytesToUnicode();
  const vocab: Record<string, number> = {};
  table.forEach((ch, b) => {
    vocab[ch] = b;
  });
  const merges: Array<[string, string]> = [];
  for (const word of merged) {
    let left = 'Ġ';
    for (const ch of word) {
      const piece = left + ch;
      if (vocab[piece] === undefined) {
        merges.push([left, ch]);
        vocab[piece] = Object.keys(vocab).length;
      }
      left = piece;
    }
  }
  return {
    version: '1.0',
    added_tokens: [],
    normalizer: null,
    post_processor: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges,
    },
  };
}

/** Writes `tokenizer` as `<dir>/<name>-tokenizer.json` and returns the path. */
export function writeTokenizer(dir: string, name: string, tokenizer: object): string {
  const path = join(dir, `${name}-tokenizer.json`);
  writeFileSync(path, JSON.stringify(tokenizer));
  return path;
}
