/**
 * Debian's Chromium for the tests that read a page, through playwright-core,
 * and what the page tests set up beside it: the built page, a real `goodput
 * serve` on a free port, a simulator with steady timings. One place for the
 * executable (GOODPUT_CHROMIUM overrides /usr/bin/chromium) and for the flags
 * that keep it headless, sandbox-free (containers) and off the network.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Locator, type Page, chromium } from 'playwright-core';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { type Started, startGoodput } from './goodput-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = process.env['GOODPUT_CHROMIUM'] ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium, headless. @throws Error naming the path and the fix when it is not installed there. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is not at ${CHROMIUM}: install Debian's chromium (CI: apt-get install -y chromium) or set GOODPUT_CHROMIUM`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** @throws Error when the page serve hands out is not built (dist/web-app). */
export function needBuiltPage(): void {
  if (!existsSync(`${ROOT}dist/web-app/index.html`)) throw new Error('the page is not built: run `npm run build` before this test (npm test does)');
}

export interface Served {
  serve: Started;
  /** The page's address, ending in `/`. */
  url: string;
  /** `?token=…`: the write key serve printed with its address. */
  key: string;
}

/** `goodput serve` on a free port over the embedded store in `data`, once it has printed its address and write key. */
export async function startServe(data: string): Promise<Served> {
  const serve = startGoodput(['serve', '--port', '0', '--data', data]);
  const [, url = '', key = ''] = await serve.waitFor(/goodput serve: (http:\/\/127\.0\.0\.1:\d+\/)(\?token=\S+)/);
  return { serve, url, key };
}

/** A simulator process whose prefill takes `prefillBaseMs` whatever the prompt and whose decode steps take `decodeStepMs` whatever the batch. */
export const steadySim = (prefillBaseMs: number, decodeStepMs: number, more: readonly string[] = []): Promise<SimProcess> =>
  spawnSimProcess([
    '--prefill-base-ms',
    String(prefillBaseMs),
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    String(decodeStepMs),
    '--decode-ms-per-extra-seq',
    '0',
    ...more,
  ]);

/** A page in a fresh 1,400 × 1,000 px window. */
export const desktopPage = async (browser: Browser): Promise<Page> => (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();

/** Waits (bounded) until the locator's first match shows. */
export const visible = (l: Locator, timeout = 15_000): Promise<void> => l.first().waitFor({ state: 'visible', timeout });
