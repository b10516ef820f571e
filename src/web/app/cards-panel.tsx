/**
 * The cards: a text run's three (sections headed Model, Engine, Platform) with
 * "Copy cards as JSON", which puts exactly what `goodput cards` prints on the
 * clipboard, or the cards another kind's view gives (nothing to copy there).
 */
import { useState } from 'preact/hooks';
import type { Cards } from '../../core/index.js';
import { type CardView, cardViews, cardsJson, cardsMarkup } from '../view/index.js';
import { Markup } from './markup.js';

export function CardsPanel(p: { cards: Cards } | { views: readonly CardView[] }) {
  const [said, setSaid] = useState('');
  const [fallback, setFallback] = useState<string | null>(null);
  async function copy() {
    if (!('cards' in p)) return;
    const text = cardsJson(p.cards);
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied the three cards as JSON (the same as goodput cards).');
    } catch {
      setFallback(text);
      setSaid('The browser refused the clipboard: the JSON is selected below, copy it with Ctrl-C.');
    }
  }
  return (
    <section class="cards-panel" aria-labelledby="cards-title">
      <div class="cards-head">
        <h3 id="cards-title">Cards</h3>
        {'cards' in p && (
          <>
            <button type="button" class="secondary" onClick={copy}>
              Copy cards as JSON
            </button>
            <p role="status" class="hint">
              {said}
            </p>
          </>
        )}
      </div>
      <Markup html={cardsMarkup('cards' in p ? cardViews(p.cards) : p.views)} />
      {fallback && <textarea aria-label="Cards as JSON" readOnly rows={12} value={fallback} ref={(el) => el?.select()} />}
    </section>
  );
}
