/** Markup from the view module (web/view/markup.ts), inserted as is: the same HTML `goodput report` writes. */
import type { Raw } from '../view/index.js';

export function Markup({ html, class: cls }: { html: Raw; class?: string }) {
  return <div class={cls} dangerouslySetInnerHTML={{ __html: html.html }} />;
}
