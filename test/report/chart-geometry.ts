// Text boxes of a rendered chart, read from vega's scenegraph in chart coordinates: what the overprint tests check.
import { chartView } from '../../src/report/render-chart.js';

export interface TextBox {
  readonly text: string;
  readonly mark: string;
  readonly role: string;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

interface SceneItem {
  x?: number;
  y?: number;
  text?: unknown;
  opacity?: number;
  bounds?: { x1: number; y1: number; x2: number; y2: number };
  items?: SceneNode[];
}
interface SceneNode {
  marktype?: string;
  name?: string;
  role?: string;
  items?: SceneItem[];
}

/** Every visible text of the chart, and every data point drawn (symbols of the plot, not of legends). */
export async function chartBoxes(spec: object): Promise<{ texts: TextBox[]; points: TextBox[] }> {
  const view = await chartView(spec);
  const out: TextBox[] = [];
  const points: TextBox[] = [];
  const walk = (node: SceneNode, ox: number, oy: number) => {
    for (const item of node.items ?? []) {
      if (node.marktype === 'group') {
        for (const child of item.items ?? []) walk(child, ox + (item.x ?? 0), oy + (item.y ?? 0));
      } else if (node.marktype === 'symbol' && node.role === 'mark' && item.bounds) {
        const b = item.bounds;
        points.push({
          text: '',
          mark: node.name ?? '',
          role: 'point',
          x1: b.x1 + ox,
          y1: b.y1 + oy,
          x2: b.x2 + ox,
          y2: b.y2 + oy,
        });
      } else if (
        node.marktype === 'text' &&
        item.bounds &&
        String(item.text ?? '').trim() !== '' &&
        // vega hides axis labels that would collide by setting their opacity to 0.
        item.opacity !== 0
      ) {
        const b = item.bounds;
        out.push({
          text: Array.isArray(item.text) ? item.text.join(' / ') : String(item.text),
          mark: node.name ?? '',
          role: node.role ?? '',
          x1: b.x1 + ox,
          y1: b.y1 + oy,
          x2: b.x2 + ox,
          y2: b.y2 + oy,
        });
      }
    }
  };
  walk((view.scenegraph() as unknown as { root: SceneNode }).root, 0, 0);
  view.finalize();
  return { texts: out, points };
}

export const collide = (a: TextBox, b: TextBox, slack = 0.25) =>
  a.x1 + slack < b.x2 && b.x1 + slack < a.x2 && a.y1 + slack < b.y2 && b.y1 + slack < a.y2;

/** Pairs of boxes that overlap by more than `slack` in both directions. */
export function overprinted(boxes: readonly TextBox[], slack = 0.25): [TextBox, TextBox][] {
  const pairs: [TextBox, TextBox][] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      if (collide(boxes[i]!, boxes[j]!, slack)) pairs.push([boxes[i]!, boxes[j]!]);
  return pairs;
}
