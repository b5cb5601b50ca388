// The project's one chart renderer: a vega-lite spec to SVG (vega, headless) and PNG (resvg). The PNG is drawn with
// the DejaVu Sans files shipped in the `dejavu-fonts-ttf` package and no system fonts, so text renders the same on
// a machine with no fonts installed (resvg silently drops text it has no font for).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { readMetrics, textWidth, type FontMetrics } from './text-width.js';

export const FONT_FAMILY = 'DejaVu Sans';
/** PNG pixels per SVG unit for charts drawn in screen units (the ecology's): 2 keeps text sharp. */
export const PNG_SCALE = 2;

/**
 * The report's charts are drawn for a book column: one SVG unit is one typographic point, the whole chart (legend
 * and padding included) at most 4.5 in = 324 pt wide, and the PNG at 300 dpi, so 1,350 pixels across.
 */
export const BOOK_COLUMN_PT = 324;
export const BOOK_DPI = 300;
export const BOOK_SCALE = BOOK_DPI / 72;

function fontFiles(): string[] {
  // The package has no entry point, so its folder is found through its package.json.
  const root = dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json'));
  return ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf'].map((f) => join(root, 'ttf', f));
}

let fonts: { regular: FontMetrics; bold: FontMetrics } | undefined;
function metrics(): { regular: FontMetrics; bold: FontMetrics } {
  if (!fonts) {
    const [regular, bold] = fontFiles();
    fonts = { regular: readMetrics(regular!), bold: readMetrics(bold!) };
  }
  return fonts;
}

const isBold = (weight: unknown) => weight === 'bold' || (typeof weight === 'number' && weight >= 600);

/** Width of `text` in the bundled font at `fontSize`, as the PNG draws it (kerning aside). */
export function measureText(text: string, fontSize: number, bold = false): number {
  const m = metrics();
  return textWidth(bold ? m.bold : m.regular, text, fontSize);
}

/**
 * Vega measures text with this for layout and for scenegraph bounds (the hook vl-convert uses): the widths then
 * match the drawn glyphs instead of vega's 0.8-em guess.
 */
type TextItem = { text?: unknown; fontSize?: number; fontWeight?: unknown };
// vega exports its text metrics object at run time; its type declarations leave it out.
const textMetrics = (vega as unknown as { textMetrics: { width: (item: TextItem, text?: unknown) => number } })
  .textMetrics;

function installMetrics(): void {
  textMetrics.width = (item: TextItem, text?: unknown) => {
    const value = String(text ?? item.text ?? '').trim();
    return measureText(value, item.fontSize ?? 11, isBold(item.fontWeight));
  };
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

/** The vega view of a vega-lite spec, laid out and run (its scenegraph holds every mark's bounds). */
export async function chartView(spec: object): Promise<View> {
  installMetrics();
  const view = new View(parse(compile(spec as TopLevelSpec).spec), { renderer: 'none' });
  await view.runAsync();
  return view;
}

export async function renderChart(spec: object, scale: number = PNG_SCALE): Promise<{ svg: string; png: Buffer }> {
  const view = await chartView(spec);
  try {
    const svg = await view.toSVG();
    const png = new Resvg(svg, {
      font: {
        loadSystemFonts: false,
        fontFiles: fontFiles(),
        defaultFontFamily: FONT_FAMILY,
        sansSerifFamily: FONT_FAMILY,
      },
      fitTo: { mode: 'zoom', value: scale },
      background: 'white',
    })
      .render()
      .asPng();
    return { svg, png };
  } finally {
    view.finalize();
  }
}
