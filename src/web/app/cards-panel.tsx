/**
 * The three cards (sections headed Model, Engine, Platform) and "Copy cards
 * as JSON", which puts exactly what `goodput cards` prints on the clipboard.
 */
import { useState } from 'preact/hooks';
import type { Cards } from '../../core/index.js';
import { cardViews, cardsJson } from '../view/index.js';

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
        <button type="button" class="secondary" onClick={copy}>Copy cards as JSON</button>
        <p role="status" class="hint">{said}</p>
      </div>
      <div class="cards">
        {cardViews(cards).map((c) => (
          <section class="card" aria-labelledby={`card-${c.title}`}>
            <h4 id={`card-${c.title}`}>{c.title}</h4>
            <p class="question">{c.question}</p>
            {c.unavailable && <p class="hint">Not available: {c.unavailable}</p>}
            <dl>
              {c.facts.map((f) => (
                <div class={f.label === 'Basis' ? 'basis' : ''}>
                  <dt>{f.label}</dt>
                  <dd>{f.value}{f.note && <span class="note"> {f.note}</span>}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      {fallback && <textarea aria-label="Cards as JSON" readOnly rows={12} value={fallback} ref={(el) => el?.select()} />}
    </section>
  );
}
