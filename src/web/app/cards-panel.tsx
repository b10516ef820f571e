/**
 * The three cards (sections headed Model, Engine, Platform) and "Copy cards
 * as JSON", which puts exactly what `goodput cards` prints on the clipboard.
 */
import { useState } from 'preact/hooks';
import type { Cards } from '../../core/index.js';
import { cardsJson, cardsMarkup } from '../view/index.js';
import { Markup } from './markup.js';

export function CardsPanel({ cards }: { cards: Cards }) {
  const [said, setSaid] = useState('');
  const [fallback, setFallback] = useState<string | null>(null);
  async function copy() {
    const text = cardsJson(cards);
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
        <button type="button" class="secondary" onClick={copy}>
          Copy cards as JSON
        </button>
        <p role="status" class="hint">
          {said}
        </p>
      </div>
      <Markup html={cardsMarkup(cards)} />
      {fallback && <textarea aria-label="Cards as JSON" readOnly rows={12} value={fallback} ref={(el) => el?.select()} />}
    </section>
  );
}
