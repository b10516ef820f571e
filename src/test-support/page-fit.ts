/** How a page fits its window, measured in the browser: what runs past it outside a scrolling frame, and headers of more than two lines. */
import type { Page } from 'playwright-core';

export interface PageFit {
  /** Elements past the window's right edge that are not inside a scrolling frame (or a closed details). */
  overflow: string[];
  /** Header cells drawn on more than two lines. */
  tall: string[];
  /** The document's scroll width, px. */
  scrollWidth: number;
}

export const measureFit = (page: Page): Promise<PageFit> =>
  page.evaluate(`(() => {
  const overflow = [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.table-wrap') && !el.closest('details:not([open])'))
    .map((el) => el.tagName.toLowerCase() + '.' + String(el.className && el.className.baseVal !== undefined ? el.className.baseVal : el.className));
  const tall = [...document.querySelectorAll('thead th')].filter((th) => th.getClientRects().length > 0 && !th.closest('details:not([open])')).filter((th) => {
    const r = document.createRange(); r.selectNodeContents(th);
    return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 2;
  }).map((th) => th.textContent);
  return { overflow, tall, scrollWidth: document.documentElement.scrollWidth };
})()`) as Promise<PageFit>;

/** Elements under `selector` that a reader cannot see without scrolling sideways: past the window's edge, or past their scrolling frame's visible part. */
export const offscreen = (page: Page, selector: string): Promise<string[]> =>
  page.evaluate(`(() => {
  const out = [];
  for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
    if (el.getClientRects().length === 0) continue;
    const r = el.getBoundingClientRect();
    const frame = el.closest('.table-wrap');
    const right = frame ? Math.min(window.innerWidth, frame.getBoundingClientRect().right) : window.innerWidth;
    if (r.right > right + 1 || r.left < -1) out.push(el.tagName.toLowerCase() + ': ' + (el.textContent || '').slice(0, 60));
  }
  return out;
})()`) as Promise<string[]>;

/** The smallest text drawn on screen in the visible SVGs under `selector`, px: each text's font size times its SVG's scale. */
export const smallestSvgText = (page: Page, selector: string): Promise<number | null> =>
  page.evaluate(`(() => {
  let min = null;
  for (const svg of document.querySelectorAll(${JSON.stringify(selector)} + ' svg')) {
    if (svg.getClientRects().length === 0 || !svg.viewBox || !svg.viewBox.baseVal || svg.viewBox.baseVal.width === 0) continue;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll('text')) {
      if (t.getClientRects().length === 0 || (t.textContent || '').trim() === '') continue;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (min === null || px < min) min = px;
    }
  }
  return min;
})()`) as Promise<number | null>;
