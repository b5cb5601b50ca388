// The PNGs must carry their text on a machine with no system fonts. resvg drops text it has no font for without a
// word, so a chart can look "not blank" with every label missing; here each committed chart is drawn again with no
// font at all, and the committed PNG must differ from that fontless drawing by the ink its text adds.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { BOOK_SCALE } from '../../src/report/render-chart.js';
import { decodePng, RESULTS } from './support.js';

const CHARTS = join(RESULTS, 'charts');
const names = readdirSync(CHARTS)
  .filter((f) => f.endsWith('.svg'))
  .map((f) => f.slice(0, -'.svg'.length))
  .sort();

function fontless(svg: string): Buffer {
  return new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: [] },
    fitTo: { mode: 'zoom', value: BOOK_SCALE },
    background: 'white',
  })
    .render()
    .asPng();
}

/** Pixels whose colour differs between two images of the same size. */
function differing(a: Buffer, b: Buffer): { count: number; total: number } {
  const x = decodePng(a);
  const y = decodePng(b);
  expect([x.width, x.height]).toEqual([y.width, y.height]);
  let count = 0;
  for (let i = 0; i < x.pixels.length; i += 4) {
    if (x.pixels[i] !== y.pixels[i] || x.pixels[i + 1] !== y.pixels[i + 1] || x.pixels[i + 2] !== y.pixels[i + 2])
      count += 1;
  }
  return { count, total: x.width * x.height };
}

describe('committed chart PNGs draw their text with the bundled font', () => {
  it('has charts to check', () => {
    expect(names.length).toBeGreaterThanOrEqual(5);
  });

  it.each(names)('%s: its text adds ink that a fontless drawing lacks', (name) => {
    const svg = readFileSync(join(CHARTS, `${name}.svg`), 'utf8');
    const textElements = svg.match(/<text\b/g)?.length ?? 0;
    expect(textElements).toBeGreaterThan(10);
    const { count, total } = differing(readFileSync(join(CHARTS, `${name}.png`)), fontless(svg));
    // Every text element is at least a few dozen pixels of glyphs at 300 dpi.
    expect(count).toBeGreaterThan(textElements * 30);
    expect(count).toBeLessThan(total);
  });
});
