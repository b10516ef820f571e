/**
 * Trace files as they come: the three formats detected and read, windows,
 * failures in a BurstGPT log skipped and counted, labels kept, timestamps that
 * go backwards sorted (or refused with strict), and every kind of bad input
 * refused in one line naming the file and line — including a 2 GB file with no
 * newline, which is refused at the line bound without being loaded.
 */
import { closeSync, mkdtempSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './content-hash.js';
import { parseWindow, readTrace } from './trace-read.js';
import { tracePrompt } from './trace-prompt.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-trace-'));
let n = 0;
const file = (text: string, ext = 'jsonl') => {
  const p = join(dir, `t${n++}.${ext}`);
  writeFileSync(p, text);
  return p;
};
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('reading traces', () => {
  it('reads Mooncake JSONL: offsets from the first request, lengths, hash ids, the file hash', async () => {
    const text = jsonl([
      { timestamp: 1000, input_length: 600, output_length: 20, hash_ids: [1, 2] },
      { timestamp: 1250, input_length: 1100, output_length: 8, hash_ids: [1, 3, 4] },
    ]);
    const t = await readTrace(file(text));
    expect(t.format).toBe('mooncake');
    expect(t.sha256).toBe(sha256Hex(text));
    expect(t.requests).toEqual([
      { atMs: 0, promptTokens: 600, outputTokens: 20, hashIds: [1, 2], line: 1 },
      { atMs: 250, promptTokens: 1100, outputTokens: 8, hashIds: [1, 3, 4], line: 2 },
    ]);
  });

  it('reads BurstGPT CSV: seconds, failures in the log skipped and counted, other columns as labels', async () => {
    const csv =
      'Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\r\n' +
      '5,ChatGPT,472,18,490,Conversation log\r\n' +
      '5.5,GPT-4,1003,0,1003,Conversation log\r\n' +
      '7.25,"GPT-4",120,300,420,"API, log"\r\n';
    const t = await readTrace(file(csv, 'csv'));
    expect(t.format).toBe('burstgpt');
    expect(t.requests.map((r) => [r.atMs, r.promptTokens, r.outputTokens, r.line])).toEqual([
      [0, 472, 18, 2],
      [2250, 120, 300, 4],
    ]);
    expect(t.skipped).toEqual({ failed: 1, outsideWindow: 0 });
    expect(t.labels).toEqual({ Model: { ChatGPT: 1, 'GPT-4': 1 }, 'Log Type': { 'Conversation log': 1, 'API, log': 1 } });
  });

  it('reads the Azure LLM inference trace CSV by its header: its dates as published (2023 and 2024), offsets to the microsecond', async () => {
    const csv =
      'TIMESTAMP,ContextTokens,GeneratedTokens\r\n' +
      '2023-11-16 18:15:46.6805900,374,44\r\n' +
      '2023-11-16 18:15:50.9951690,396,109\r\n' +
      '2023-11-16 18:16:00,879,21\r\n';
    const t = await readTrace(file(csv, 'csv'));
    expect(t.format).toBe('azure');
    // Epoch milliseconds in a double keep the microseconds to within a nanosecond.
    const us = (ms: number) => Math.round(ms * 1000) / 1000;
    expect(t.requests.map((r) => [us(r.atMs), r.promptTokens, r.outputTokens, r.line])).toEqual([
      [0, 374, 44, 2],
      [4314.579, 396, 109, 3],
      [13319.41, 879, 21, 4],
    ]);
    const t2 = await readTrace(
      file('TIMESTAMP,ContextTokens,GeneratedTokens\n2024-05-10 00:00:00.009930+00:00,10,2\n2024-05-10 01:00:00.5+01:00,20,3\n', 'csv'),
    );
    expect(t2.requests.map((r) => us(r.atMs))).toEqual([0, 490.07]);
    await expect(readTrace(file('TIMESTAMP,ContextTokens\n2023-11-16 18:15:46,1\n', 'csv'))).rejects.toThrow(
      /: line 1: the CSV header lacks "GeneratedTokens" \(Azure columns: TIMESTAMP, ContextTokens, GeneratedTokens\)$/,
    );
    const share = file('[{"id": "a", "conversations": []}]', 'json');
    await expect(readTrace(share)).rejects.toThrow(
      `trace ${share}: line 1: a JSON list (ShareGPT?) has no send times: its first turns are a sweep's prompts (goodput sweep --dataset FILE), its conversations sessions (goodput sessions --conversations FILE)`,
    );
    const bad = file('TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,374,44\n16/11/2023 18:15,374,44\n', 'csv');
    await expect(readTrace(bad)).rejects.toThrow(`trace ${bad}: line 3: TIMESTAMP "16/11/2023 18:15" is not a date and time like 2023-11-16 18:15:46.6805900`);
    const zero = file('TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,0,44\n', 'csv');
    await expect(readTrace(zero)).rejects.toThrow(`trace ${zero}: line 2: ContextTokens "0" is not a whole number of at least 1`);
  });

  it('reads goodput JSONL with token counts or literal prompts', async () => {
    const t = await readTrace(
      file(
        jsonl([
          { t: 0.5, promptTokens: 40, outputTokens: 10 },
          { t: 1, prompt: 'hello there world', outputTokens: 5 },
        ]),
      ),
    );
    expect(t.format).toBe('goodput');
    expect(t.requests).toEqual([
      { atMs: 0, promptTokens: 40, outputTokens: 10, line: 1 },
      { atMs: 500, promptTokens: 3, outputTokens: 5, prompt: 'hello there world', line: 2 },
    ]);
  });

  it('takes a window (seconds after the first request) and counts what it left out', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ timestamp: i * 1000, input_length: 10, output_length: 5 }));
    const t = await readTrace(file(jsonl(rows)), { window: parseWindow('2..5') });
    expect(t.requests.map((r) => [r.atMs, r.line])).toEqual([
      [0, 3],
      [1000, 4],
      [2000, 5],
    ]);
    expect(t.skipped.outsideWindow).toBe(7);
    expect(() => parseWindow('5..2')).toThrow("--window: '5..2' is not START..END in seconds with END after START (e.g. 0..600)");
  });

  it('sorts timestamps that go backwards, with a warning naming the first such line; refuses them with strict', async () => {
    const p = file(
      jsonl([
        { timestamp: 100, input_length: 1, output_length: 1 },
        { timestamp: 50, input_length: 2, output_length: 1 },
        { timestamp: -20, input_length: 3, output_length: 1 },
      ]),
    );
    const t = await readTrace(p);
    expect(t.requests.map((r) => [r.atMs, r.promptTokens])).toEqual([
      [0, 3],
      [70, 2],
      [120, 1],
    ]);
    expect(t.warnings).toEqual(["the trace's timestamps go backwards (first at line 2); its requests were sorted by time"]);
    await expect(readTrace(p, { strict: true })).rejects.toThrow(
      `trace ${p}: line 2: the timestamp goes backwards (0.05 s after 0.1 s); without --strict the trace is sorted`,
    );
  });

  const bad: Array<[string, string, string, RegExp]> = [
    ['an empty file', '', 'jsonl', /: no requests \(the file is empty\)$/],
    ['a header only', 'Timestamp,Request tokens,Response tokens\n', 'csv', /: no requests \(the file is empty below its header\)$/],
    [
      'a missing column',
      'Timestamp,Request tokens,Model\n1,2,x\n',
      'csv',
      /: line 1: the CSV header lacks "Response tokens" \(BurstGPT columns: Timestamp, Request tokens, Response tokens\)$/,
    ],
    [
      'a non-numeric length',
      jsonl([{ timestamp: 0, input_length: 'abc', output_length: 3 }]),
      'jsonl',
      /: line 1: input_length "abc" is not a whole number of at least 1$/,
    ],
    [
      'a megabyte-long value, shown cut',
      jsonl([{ timestamp: 0, input_length: 'x'.repeat(500_000), output_length: 3 }]),
      'jsonl',
      /: line 1: input_length "x{39}… is not a whole number of at least 1$/,
    ],
    [
      'a missing length',
      jsonl([
        { timestamp: 0, input_length: 3, output_length: 3 },
        { timestamp: 1, input_length: 4 },
      ]),
      'jsonl',
      /: line 2: output_length missing is not a whole number of at least 1$/,
    ],
    ['a non-numeric time', 'Timestamp,Request tokens,Response tokens\nsoon,3,4\n', 'csv', /: line 2: Timestamp "soon" is not a number$/],
    ['a short CSV row', 'Timestamp,Request tokens,Response tokens\n1,3\n', 'csv', /: line 2: 2 fields where the header has 3$/],
    ['a line that is not JSON', '{"timestamp": 1, "input_length": 2, "output_length": 3}\n{oops\n', 'jsonl', /: line 2: not a JSON object$/],
    [
      'an unknown JSON shape',
      jsonl([{ time: 1 }]),
      'jsonl',
      /: line 1: a JSON line with neither "timestamp" \(Mooncake\) nor "t" \(goodput\): not a trace format goodput reads$/,
    ],
    [
      'a prompt past the limit',
      jsonl([{ timestamp: 0, input_length: 300000, output_length: 3 }]),
      'jsonl',
      /: line 1: input_length 300000 is above the limit of 262144 prompt tokens per request$/,
    ],
    [
      'more hash ids than prompt tokens',
      jsonl([{ timestamp: 0, input_length: 3, output_length: 3, hash_ids: [1, 2, 3, 4] }]),
      'jsonl',
      /: line 1: hash_ids holds 4 ids, more than its 3 prompt tokens could fill$/,
    ],
    [
      'bad hash ids',
      jsonl([{ timestamp: 0, input_length: 3, output_length: 3, hash_ids: [1, -2] }]),
      'jsonl',
      /: line 1: hash_ids\[1\] -2 is not a whole number$/,
    ],
    [
      'a session in a goodput trace',
      jsonl([{ t: 0, promptTokens: 3, outputTokens: 3, session: 'a' }]),
      'jsonl',
      /: line 1: "session" \(a multi-turn session\) cannot be replayed as a trace of independent requests$/,
    ],
    [
      'both prompt and promptTokens',
      jsonl([{ t: 0, prompt: 'x', promptTokens: 3, outputTokens: 3 }]),
      'jsonl',
      /: line 1: give exactly one of promptTokens and prompt$/,
    ],
  ];
  for (const [what, text, ext, message] of bad) {
    it(`refuses ${what}, naming the line`, async () => {
      const p = file(text, ext);
      await expect(readTrace(p)).rejects.toThrow(message);
      await expect(readTrace(p)).rejects.toThrow(`trace ${p}`);
    });
  }

  it('refuses more requests than one level may send, at the line that passes the limit', async () => {
    const rows = Array.from({ length: 20_001 }, (_, i) => ({ t: i / 100, promptTokens: 1, outputTokens: 1 }));
    await expect(readTrace(file(jsonl(rows)))).rejects.toThrow(
      /: requests 20001 is above the limit of 20000 measured requests per level \(at line 20001\); take a slice with --window START\.\.END$/,
    );
  });

  it('streams a 2 GB file with no newline: refused at the 1 MiB line bound, never loaded whole', async () => {
    const p = join(dir, 'huge.jsonl');
    const fd = openSync(p, 'w');
    ftruncateSync(fd, 2 * 1024 ** 3); // sparse: costs no disk
    closeSync(fd);
    const before = process.memoryUsage().rss;
    await expect(readTrace(p)).rejects.toThrow(`trace ${p}: line 1 is longer than 1 MiB (is this a trace file?)`);
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });

  it('refuses a timestamp past the horizon (1e15 ms, 1e308) or a trace spanning more than a year, naming the file and line', async () => {
    const far = file(
      jsonl([
        { timestamp: 0, input_length: 8, output_length: 8 },
        { timestamp: 1e15, input_length: 8, output_length: 8 },
      ]),
    );
    await expect(readTrace(far)).rejects.toThrow(
      `trace ${far}: line 2: the timestamp 1000000000000 s is past the horizon of 10000000000 s a trace's times may reach`,
    );
    const huge = file('{"t": 0, "promptTokens": 8, "outputTokens": 8}\n{"t": 1e308, "promptTokens": 8, "outputTokens": 8}\n');
    await expect(readTrace(huge)).rejects.toThrow(new RegExp(`^trace ${huge}: line 2: the timestamp .* is past the horizon`));
    const long = file(
      jsonl([
        { timestamp: 0, input_length: 8, output_length: 8 },
        { timestamp: 400 * 86_400_000, input_length: 8, output_length: 8 },
      ]),
    );
    await expect(readTrace(long)).rejects.toThrow(
      `trace ${long}: line 2: the timestamp is 400 days after the first request, past the 366 days a trace may span; take a --window`,
    );
    // A row far before the first would sort to the front and push every other row 400 days later.
    const back = file(
      jsonl([
        { timestamp: 400 * 86_400_000, input_length: 8, output_length: 8 },
        { timestamp: 0, input_length: 8, output_length: 8 },
      ]),
    );
    await expect(readTrace(back)).rejects.toThrow(
      `trace ${back}: line 2: the timestamp is 400 days before the first request, past the 366 days a trace may span; take a --window`,
    );
  });

  it('reads a trace opening with a byte-order mark like one without', async () => {
    const bom = file('\uFEFF{"t": 0, "promptTokens": 8, "outputTokens": 8}\n{"t": 1, "promptTokens": 8, "outputTokens": 8}\n');
    expect((await readTrace(bom)).requests).toHaveLength(2);
  });

  it('refuses a file that cannot be read, naming it', async () => {
    await expect(readTrace(join(dir, 'absent.jsonl'))).rejects.toThrow(`trace ${join(dir, 'absent.jsonl')}: cannot read (ENOENT)`);
  });
});

describe('trace prompts', () => {
  it('have exactly the traced length, share the text of equal hash ids, and nothing across runs', () => {
    const a = tracePrompt({ p: 1100, h: [7, 8, 100] }, 512, 'runA', 0).split(' ');
    const b = tracePrompt({ p: 600, h: [7, 200] }, 512, 'runA', 1).split(' ');
    const other = tracePrompt({ p: 600, h: [7, 200] }, 512, 'runB', 1).split(' ');
    expect([a.length, b.length]).toEqual([1100, 600]);
    expect(a.slice(0, 512)).toEqual(b.slice(0, 512));
    expect(a.slice(512, 530)).not.toEqual(b.slice(512, 530));
    expect(a[0]).toBe('rrunA');
    expect(other.slice(1, 512)).not.toEqual(b.slice(1, 512));
    // Without ids every block is the request's own.
    expect(tracePrompt({ p: 40 }, 16, 'runA', 0)).not.toBe(tracePrompt({ p: 40 }, 16, 'runA', 1));
    expect(tracePrompt({ p: 3, text: 'as given here' }, 16, 'runA', 0)).toBe('as given here');
  });
});
