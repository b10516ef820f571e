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

export const measureFit = (page: Page): Promise<PageFit> => page.evaluate(`(() => {
  const overflow = [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest('.table-wrap') && !el.closest('details:not([open])'))
    .map((el) => el.tagName.toLowerCase() + '.' + String(el.className && el.className.baseVal !== undefined ? el.className.baseVal : el.className));
  const tall = [...document.querySelectorAll('thead th')].filter((th) => th.getClientRects().length > 0 && !th.closest('details:not([open])')).filter((th) => {
    const r = document.createRange(); r.selectNodeContents(th);
    return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 2;
  }).map((th) => th.textContent);
  return { overflow, tall, scrollWidth: document.documentElement.scrollWidth };
})()`) as Promise<PageFit>;
