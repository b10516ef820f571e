/**
 * Labels beside points that do not overlap one another or any point: a
 * greedy pass in pixels, each label taking the first of a few positions
 * around its point (above, below, right, left, then further out) whose box
 * is inside the chart and clear of every box placed before it. A label with
 * no free position is left out (the figure's data table still lists it).
 */

export interface LabelRequest {
  /** The point's position, px. */
  px: number;
  py: number;
  text: string;
  fontSize: number;
}

export interface PlacedLabel extends LabelRequest {
  /** Which request it is, in the order given. */
  index: number;
  /** The text's anchor point, px (its bottom edge), and its alignment there. */
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Roughly how wide a label is drawn: a sans-serif character is about 0.6 of the font size. */
const textWidth = (text: string, fontSize: number) => text.length * fontSize * 0.6;

/** Offsets from the point: [dx, dy of the baseline, anchor]. */
const POSITIONS: ReadonlyArray<[number, number, PlacedLabel['anchor']]> = [
  [0, -9, 'middle'],
  [0, 17, 'middle'],
  [10, 4, 'start'],
  [-10, 4, 'end'],
  [8, -8, 'start'],
  [-8, -8, 'end'],
  [8, 15, 'start'],
  [-8, 15, 'end'],
  [0, -21, 'middle'],
  [0, 29, 'middle'],
  [22, 4, 'start'],
  [-22, 4, 'end'],
];

function boxOf(x: number, y: number, anchor: PlacedLabel['anchor'], text: string, fontSize: number): Box {
  const w = textWidth(text, fontSize);
  const x0 = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
  return { x0, y0: y - fontSize, x1: x0 + w, y1: y + 1 };
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * Places `labels` in order (earlier ones win a contested spot) inside `bounds`,
 * clear of each other and of every point (drawn with radius `pointRadius`).
 */
export function placeLabels(labels: readonly LabelRequest[], points: ReadonlyArray<{ px: number; py: number }>, bounds: Box, pointRadius = 5): PlacedLabel[] {
  const taken: Box[] = points.map((p) => ({ x0: p.px - pointRadius, y0: p.py - pointRadius, x1: p.px + pointRadius, y1: p.py + pointRadius }));
  const out: PlacedLabel[] = [];
  for (const [index, l] of labels.entries()) {
    for (const [dx, dy, anchor] of POSITIONS) {
      const x = l.px + dx;
      const y = l.py + dy;
      const box = boxOf(x, y, anchor, l.text, l.fontSize);
      const inside = box.x0 >= bounds.x0 && box.x1 <= bounds.x1 && box.y0 >= bounds.y0 && box.y1 <= bounds.y1;
      if (!inside || taken.some((t) => overlaps(t, box))) continue;
      taken.push(box);
      out.push({ ...l, index, x, y, anchor });
      break;
    }
  }
  return out;
}

/** Whether any two placed labels' boxes overlap (what the pass prevents; tests use it). */
export function anyOverlap(labels: readonly PlacedLabel[]): boolean {
  const boxes = labels.map((l) => boxOf(l.x, l.y, l.anchor, l.text, l.fontSize));
  return boxes.some((a, i) => boxes.some((b, j) => j > i && overlaps(a, b)));
}
