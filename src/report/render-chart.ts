// The project's one chart renderer: a vega-lite spec to SVG (vega's headless 'none' renderer) and to PNG (resvg with
// the bundled DejaVu fonts only, so the bytes never depend on what fonts a machine happens to have).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

const FONT_DIR = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf'].map((f) => join(FONT_DIR, f));

export async function renderChart(spec: object): Promise<{ svg: string; png: Buffer }> {
  const runtime = vega.parse(compile(spec as TopLevelSpec).spec);
  const view = new vega.View(runtime, { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    const png = new Resvg(svg, {
      font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
    }).render().asPng();
    return { svg, png };
  } finally {
    view.finalize();
  }
}
