/** Image parts of chat requests over real HTTP: the tokens the simulator counts and what it refuses. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { syntheticImageUrl, syntheticJpeg, syntheticPng, syntheticWav } from '../workload/index.js';
import { startSimulator, type SimServer } from './index.js';

const MODEL = 'goodput-sim-1';
let s: SimServer;
beforeAll(async () => {
  s = await startSimulator({
    prefillBaseMs: 1,
    prefillMsPerToken: 0,
    decodeStepMs: 1,
    maxModelLen: 8192,
    images: { patchPixels: 32, baseTokens: 2, encoderMsPerImage: 0 },
  });
});
afterAll(async () => {
  await s.close();
});

const image = (url: string) => ({ type: 'image_url', image_url: { url } });
const chat = (content: unknown[]) =>
  fetch(`${s.url}/v1/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ model: MODEL, max_tokens: 4, messages: [{ role: 'user', content }] }),
  });

describe('chat image inputs', () => {
  it('counts ceil(w/patch) × ceil(h/patch) + base tokens per image into prompt_tokens', async () => {
    const res = await chat([
      { type: 'text', text: 'describe these two pictures' },
      image(syntheticImageUrl(512, 512, 1, 0)),
      image(syntheticImageUrl(512, 512, 1, 1)),
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { usage: { prompt_tokens: number } };
    // 4 words + 2 × (16 × 16 patches + 2).
    expect(body.usage.prompt_tokens).toBe(4 + 2 * 258);
    const odd = (await (await chat([image(syntheticImageUrl(33, 31, 1, 0))])).json()) as { usage: { prompt_tokens: number } };
    expect(odd.usage.prompt_tokens).toBe(2 * 1 + 2);
  });

  const refused: Array<[string, unknown[], RegExp]> = [
    ['a URL off loopback', [image('http://10.1.2.3/cat.png')], /on loopback \(127\.0\.0\.1, ::1, localhost\): the simulator fetches from nowhere else/],
    ['an https or file URL', [image('file:///etc/passwd')], /the simulator fetches from nowhere else/],
    ['a loopback URL nobody answers', [image('http://127.0.0.1:9/cat.png')], /could not be fetched: /],
    ['a GIF data URL', [image('data:image/gif;base64,R0lGODlh')], /must be a PNG or JPEG data URL/],
    ['a JPEG without its frame header', [image('data:image/jpeg;base64,/9j/4AAQ')], /is a JPEG without a frame header/],
    [
      'bytes that are not a PNG',
      [image(`data:image/png;base64,${Buffer.alloc(40, 7).toString('base64')}`)],
      /is neither a PNG \(signature and IHDR\) nor a JPEG/,
    ],
    ['a part without url', [{ type: 'image_url', image_url: {} }], /needs a url/],
    ['17 images', Array.from({ length: 17 }, (_, i) => image(syntheticImageUrl(8, 8, 1, i))), /more than 16 images/],
  ];
  for (const [name, content, message] of refused) {
    it(`refuses ${name} with a 400 naming the part`, async () => {
      const res = await chat(content);
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { message: string; param: string } }).error;
      expect(error.param).toMatch(/^messages\[0\]\.content\[\d+\]\.image_url$/);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses a PNG whose header claims a side past the limits table', async () => {
    const png = Buffer.from(syntheticImageUrl(8, 8, 1, 0).split(',')[1] as string, 'base64');
    png.writeUInt32BE(5000, 16);
    const res = await chat([image(`data:image/png;base64,${png.toString('base64')}`)]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/5000×8: each side must be 1 to 4096 pixels/);
  });
});

describe("chat image inputs on Ollama's native API", () => {
  it("reads the message's images field (bare base64) as image parts and counts them", async () => {
    const o = await startSimulator({ dialect: 'ollama', prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, images: { encoderMsPerImage: 0 } });
    try {
      const b64 = syntheticImageUrl(64, 64, 1, 0).split(',')[1];
      const res = await fetch(`${o.url}/api/chat`, {
        method: 'POST',
        body: JSON.stringify({ model: MODEL, stream: false, options: { num_predict: 4 }, messages: [{ role: 'user', content: 'two words', images: [b64] }] }),
      });
      expect(res.status).toBe(200);
      // 2 words + ceil(64/32)² = 4 image tokens.
      expect(((await res.json()) as { prompt_eval_count: number }).prompt_eval_count).toBe(2 + 4);
    } finally {
      await o.close();
    }
  });
});

/** A WAV of 122 s (header and bytes alike): past the 120 s row. */
function longerThanLimit(): string {
  const wav = Buffer.concat([syntheticWav(120, 1, 0), Buffer.alloc(2 * 16_000)]);
  wav.writeUInt32LE(122 * 16_000, 40);
  return wav.toString('base64');
}

describe('chat audio inputs', () => {
  const audio = (data: string, format = 'wav') => ({ type: 'input_audio', input_audio: { data, format } });
  it('counts ceil(seconds × tokensPerSecond) per clip into prompt_tokens (default 25 per second)', async () => {
    const res = await chat([{ type: 'text', text: 'transcribe' }, audio(syntheticWav(2.5, 1, 0).toString('base64'))]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBe(1 + Math.ceil(2.5 * 25));
  });

  it('counts the bytes actually sent when the header claims more', async () => {
    const wav = syntheticWav(1, 1, 0);
    wav.writeUInt32LE(100 * 16_000, 40);
    const res = await chat([audio(wav.toString('base64'))]);
    expect(((await res.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBe(25);
  });

  const refused: Array<[string, unknown[], RegExp]> = [
    ['an mp3 format', [audio('AAAA', 'mp3')], /needs data \(base64\) and format "wav"/],
    ['bytes that are not a WAV', [audio(Buffer.alloc(60, 1).toString('base64'))], /is not a WAV file/],
    ['a clip past the limits table', [audio(longerThanLimit())], /lasts 122 seconds: it must be above 0 and at most 120/],
  ];
  for (const [name, content, message] of refused) {
    it(`refuses ${name} with a 400 naming the part`, async () => {
      const res = await chat(content);
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { message: string; param: string } }).error;
      expect(error.param).toBe('messages[0].content[0].input_audio');
      expect(error.message).toMatch(message);
    });
  }
});

describe('chat image inputs as JPEG and by URL', () => {
  /** A loopback image server: answers `files` by path after `delayMs`, counts what it was asked. */
  async function imageServer(files: Map<string, Buffer>, delayMs = 0): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      setTimeout(() => {
        const file = files.get(req.url ?? '');
        if (file === undefined) {
          res.writeHead(404);
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(file);
      }, delayMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      asked,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }
  const tokens = async (content: unknown[]) => {
    const res = await chat(content);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
  };

  it('counts a JPEG as it counts the PNG of the same size', async () => {
    const png = await tokens([{ type: 'text', text: 'look' }, image(syntheticImageUrl(512, 384, 1, 0))]);
    expect(await tokens([{ type: 'text', text: 'look' }, image(syntheticImageUrl(512, 384, 1, 0, 'jpeg'))])).toBe(png);
    expect(png).toBe(1 + 16 * 12 + 2);
  });

  it('fetches images by URL from loopback and counts them as their data URLs; a 404 names the part', async () => {
    const files = new Map([
      ['/a.png', syntheticPng(512, 512, 1, 0)],
      ['/b.jpg', syntheticJpeg(64, 32, 1, 1)],
      ['/huge.png', Buffer.alloc(5 * 1024 * 1024, 1)],
    ]);
    const served = await imageServer(files);
    try {
      const before = (await (await fetch(`${s.url}/sim/stats`)).json()) as { imagesFetched: number };
      const byUrl = await tokens([{ type: 'text', text: 'two pictures' }, image(`${served.url}/a.png`), image(`${served.url}/b.jpg`)]);
      const inline = await tokens([
        { type: 'text', text: 'two pictures' },
        image(syntheticImageUrl(512, 512, 1, 0)),
        image(syntheticImageUrl(64, 32, 1, 1, 'jpeg')),
      ]);
      expect(byUrl).toBe(inline);
      expect(byUrl).toBe(2 + 258 + 2 + 2);
      expect([...served.asked].sort()).toEqual(['/a.png', '/b.jpg']);
      const after = (await (await fetch(`${s.url}/sim/stats`)).json()) as { imagesFetched: number };
      expect(after.imagesFetched - before.imagesFetched).toBe(2);
      const missing = await chat([{ type: 'text', text: 'x' }, image(`${served.url}/nope.png`)]);
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { error: { param: string; message: string } }).error).toMatchObject({
        param: 'messages[0].content[1].image_url',
        message: expect.stringMatching(/answered HTTP 404/) as unknown,
      });
      // A hostile image server gets its body cut at the bound, not read whole.
      const huge = await chat([{ type: 'text', text: 'x' }, image(`${served.url}/huge.png`)]);
      expect(huge.status).toBe(400);
      expect(((await huge.json()) as { error: { message: string } }).error.message).toMatch(/could not be fetched: larger than 4194304 bytes/);
    } finally {
      await served.close();
    }
  });

  it('waits for a slow image before queueing the request: the fetch lands in time to first token; past the timeout it is refused', async () => {
    const served = await imageServer(new Map([['/slow.png', syntheticPng(32, 32, 1, 0)]]), 300);
    const quick = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, images: { encoderMsPerImage: 0, fetchTimeoutMs: 100 } });
    try {
      const t0 = performance.now();
      const res = await fetch(`${s.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: MODEL, max_tokens: 4, stream: true, messages: [{ role: 'user', content: [image(`${served.url}/slow.png`)] }] }),
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      // Nothing of the answer (not even its headers) comes before the image is in: a lower bound, not a timing accuracy.
      expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
      await reader.cancel();
      const late = await fetch(`${quick.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: MODEL, max_tokens: 4, messages: [{ role: 'user', content: [image(`${served.url}/slow.png`)] }] }),
      });
      expect(late.status).toBe(400);
      expect(((await late.json()) as { error: { message: string } }).error.message).toMatch(/could not be fetched within 100 ms/);
    } finally {
      await quick.close();
      await served.close();
    }
  });
});

describe('image and audio inputs on the Responses API', () => {
  const respond = (content: unknown[]) =>
    fetch(`${s.url}/v1/responses`, { method: 'POST', body: JSON.stringify({ model: MODEL, max_output_tokens: 4, input: [{ role: 'user', content }] }) });

  it('counts input_image and input_audio parts as their chat parts', async () => {
    const url = syntheticImageUrl(512, 512, 1, 0, 'jpeg');
    const wav = syntheticWav(2, 1, 0).toString('base64');
    const res = await respond([
      { type: 'input_text', text: 'look and listen' },
      { type: 'input_image', image_url: url, detail: 'auto' },
      { type: 'input_audio', input_audio: { data: wav, format: 'wav' } },
    ]);
    expect(res.status).toBe(200);
    const usage = ((await res.json()) as { usage: { input_tokens: number } }).usage;
    const chatTokens = (
      (await (
        await chat([{ type: 'text', text: 'look and listen' }, image(url), { type: 'input_audio', input_audio: { data: wav, format: 'wav' } }])
      ).json()) as { usage: { prompt_tokens: number } }
    ).usage.prompt_tokens;
    expect(usage.input_tokens).toBe(chatTokens);
    expect(chatTokens).toBe(3 + 258 + 50);
  });

  it('refuses an input_image whose image_url is an object (the API takes a URL string), naming the part', async () => {
    const res = await respond([
      { type: 'input_text', text: 'x' },
      { type: 'input_image', image_url: { url: syntheticImageUrl(8, 8, 1, 0) } },
    ]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/content\[1\]\.image_url: needs a url/);
  });
});
