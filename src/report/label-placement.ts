// Labels for the points of a scatter chart, placed so that no two labels overlap, no label covers a point and
// none leaves the plot: greedy, crowded points first, each label at the nearest free spot on rings around its
// point, with a leader line when it had to move away. Points drawn at the same spot share one label. Everything is
// in plot pixels (points, for the book charts); the chart maps the result back to data coordinates.

export interface Anchor {
  /** Position in plot pixels, y downwards. */
  readonly x: number;
  readonly y: number;
  readonly text: string;
}

export interface Box {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface PlacedLabel {
  readonly text: string;
  /** The anchor the label names (the first of a merged group). */
  readonly x: number;
  readonly y: number;
  /** Where the text is drawn: its box's left edge and vertical middle. */
  readonly tx: number;
  readonly ty: number;
  readonly box: Box;
  /** Whether a leader line joins the label to its point. */
  readonly leader: boolean;
}

export interface PlacementOptions {
  readonly width: number;
  readonly height: number;
  readonly fontSize: number;
  /** Text width at `fontSize`. */
  readonly measure: (text: string) => number;
  /** Half the size of a drawn point. */
  readonly pointRadius: number;
  /** Free space kept around every label. */
  readonly gap?: number;
}

export interface Placement {
  readonly labels: readonly PlacedLabel[];
  /** Labels with no free spot anywhere in the plot. */
  readonly unplaced: readonly string[];
}

export const overlaps = (a: Box, b: Box): boolean => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

const grow = (b: Box, by: number): Box => ({ x1: b.x1 - by, y1: b.y1 - by, x2: b.x2 + by, y2: b.y2 + by });

/** Anchors closer than `within` merge into one, their texts joined in the order given. */
function merge(anchors: readonly Anchor[], within: number): Anchor[] {
  const groups: { x: number; y: number; texts: string[] }[] = [];
  for (const a of anchors) {
    const g = groups.find((x) => Math.hypot(x.x - a.x, x.y - a.y) < within);
    if (g) {
      if (!g.texts.includes(a.text)) g.texts.push(a.text);
    } else groups.push({ x: a.x, y: a.y, texts: [a.text] });
  }
  return groups.map((g) => ({ x: g.x, y: g.y, text: g.texts.join(', ') }));
}

// Directions tried at each distance, in order of preference: right, left, above, below, then the diagonals.
const ANGLES = [0, 180, 270, 90, 315, 225, 45, 135, 340, 200, 20, 160, 290, 250, 70, 110].map(
  (d) => (d * Math.PI) / 180,
);

export function placeLabels(anchors: readonly Anchor[], o: PlacementOptions): Placement {
  const gap = o.gap ?? 1.5;
  const h = o.fontSize;
  const points = anchors.map((a) => ({
    x1: a.x - o.pointRadius,
    y1: a.y - o.pointRadius,
    x2: a.x + o.pointRadius,
    y2: a.y + o.pointRadius,
  }));
  const groups = merge(anchors, o.pointRadius * 0.75);
  // Crowded points first: they have the fewest free spots near them.
  const crowding = (g: Anchor) => groups.filter((x) => Math.hypot(x.x - g.x, x.y - g.y) < 40).length;
  const order = [...groups].sort((a, b) => crowding(b) - crowding(a) || a.y - b.y || a.x - b.x);
  const placed: PlacedLabel[] = [];
  const unplaced: string[] = [];
  const radii: number[] = [];
  for (let r = o.pointRadius + 2; r < Math.max(o.width, o.height); r += r < 12 ? 4 : 8) radii.push(r);
  for (const g of order) {
    const w = o.measure(g.text);
    let found: PlacedLabel | undefined;
    search: for (const r of radii) {
      for (const angle of ANGLES) {
        const dx = Math.cos(angle);
        const dy = Math.sin(angle);
        const px = g.x + r * dx;
        const py = g.y + r * dy;
        // The box hangs off the ring on the side facing away from the point.
        const x1 = dx > 0.3 ? px : dx < -0.3 ? px - w : px - w / 2;
        const y1 = dy > 0.3 ? py : dy < -0.3 ? py - h : py - h / 2;
        const box = { x1, y1, x2: x1 + w, y2: y1 + h };
        if (box.x1 < 0 || box.y1 < 0 || box.x2 > o.width || box.y2 > o.height) continue;
        const padded = grow(box, gap);
        if (points.some((p) => overlaps(padded, p))) continue;
        if (placed.some((p) => overlaps(padded, p.box))) continue;
        found = { text: g.text, x: g.x, y: g.y, tx: x1, ty: y1 + h / 2, box, leader: r > radii[0]! };
        break search;
      }
    }
    if (found) placed.push(found);
    else unplaced.push(g.text);
  }
  return { labels: placed, unplaced };
}
