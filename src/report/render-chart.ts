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

export async function renderChart(spec: object): Promise<{ svg: string; png: Buffer }> {
  const vega = compile(spec as TopLevelSpec).spec;
  const view = new View(parse(vega), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    const png = new Resvg(svg, {
      font: { loadSystemFonts: false, fontFiles: fontFiles(), defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
      fitTo: { mode: 'zoom', value: PNG_SCALE },
      background: 'white',
    }).render().asPng();
    return { svg, png };
  } finally {
    view.finalize();
  }
}
