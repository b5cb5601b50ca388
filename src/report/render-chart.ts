// The project's one chart renderer: a vega-lite spec to SVG (vega, headless) and PNG (resvg). The PNG is drawn with
// the DejaVu Sans files shipped in the `dejavu-fonts-ttf` package and no system fonts, so text renders the same on
// a machine with no fonts installed (resvg silently drops text it has no font for).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export const FONT_FAMILY = 'DejaVu Sans';
/** PNG pixels per SVG unit: 2 keeps text sharp on a printed page. */
export const PNG_SCALE = 2;

function fontFiles(): string[] {
  // The package has no entry point, so its folder is found through its package.json.
  const root = dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'));
  return ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf'].map((f) => join(root, 'ttf', f));
}

/**
 * Colours for `n` series, never the same twice: a fixed list chosen to be told apart (also in grey print), then
 * hues spaced by the golden angle at alternating lightness. Vega's own schemes repeat after 10 or 20.
 */
const BASE_PALETTE = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#aec7e8',
  '#ffbb78',
  '#98df8a',
  '#ff9896',
  '#c5b0d5',
  '#c49c94',
  '#f7b6d2',
  '#c7c7c7',
  '#dbdb8d',
  '#9edae5',
];

export function distinctColours(n: number): string[] {
  const out = BASE_PALETTE.slice(0, n);
  for (let i = 0; out.length < n; i++) {
    const colour = `hsl(${Math.round((i * 137.508) % 360)}, ${55 + (i % 3) * 15}%, ${35 + (i % 4) * 12}%)`;
    if (!out.includes(colour)) out.push(colour);
  }
  return out;
}

export async function renderChart(spec: object): Promise<{ svg: string; png: Buffer }> {
  const vega = compile(spec as TopLevelSpec).spec;
  const view = new View(parse(vega), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    const png = new Resvg(svg, {
      font: {
        loadSystemFonts: false,
        fontFiles: fontFiles(),
        defaultFontFamily: FONT_FAMILY,
        sansSerifFamily: FONT_FAMILY,
      },
      fitTo: { mode: 'zoom', value: PNG_SCALE },
      background: 'white',
    })
      .render()
      .asPng();
    return { svg, png };
  } finally {
    view.finalize();
  }
}
