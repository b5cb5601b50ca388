// What a notebook says a figure is must be what it computes: the intervals are fixture-cluster bootstraps (never
// Wilson), and the safety threshold is read on the harm rate (meetsSafety), not on the false-prune rate.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const text = (name: string) =>
  (JSON.parse(readFileSync(`notebooks/${name}`, 'utf8')) as { cells: { source: string[] }[] }).cells
    .map((c) => c.source.join(''))
    .join('\n');

/** The committed outputs of a notebook's code cells, line by line (stream text and SVG alike). */
const shown = (name: string) =>
  (
    JSON.parse(readFileSync(`notebooks/${name}`, 'utf8')) as {
      cells: { outputs?: { text?: string[]; data?: Record<string, string[]> }[] }[];
    }
  ).cells.flatMap((c) => (c.outputs ?? []).flatMap((o) => [...(o.text ?? []), ...Object.values(o.data ?? {}).flat()]));

describe('notebook wording', () => {
  it('never calls the harness intervals Wilson intervals', () => {
    for (const name of ['headline.ipynb', 'frontier.ipynb']) expect(text(name), name).not.toMatch(/Wilson/);
  });

  it('labels the threshold, which meetsSafety reads on the harm rate, as a harm-rate threshold', () => {
    const frontier = text('frontier.ipynb');
    expect(frontier).toContain('meetsSafety');
    expect(frontier).not.toContain('FPR <=');
    expect(frontier).not.toContain('whose false-prune rate stays within it');
  });

  it('names the chart it draws', () => {
    const headline = text('headline.ipynb');
    expect(headline).toContain("find((c) => c.name === 'harm-reduction')");
    expect(headline).not.toContain('## Precision and false-prune rate, drawn');
  });

  it("headline's table shows the harm rate, and the base rate beside the false-prune rate, in its source and its output", () => {
    const headline = text('headline.ipynb');
    expect(headline).toContain("'harm rate': formatProportion(r.harmRate)");
    expect(headline).toMatch(/'base rate': formatProportion\(r\.baseRate\),\n\s*'false-prune rate'/);
    const header = shown('headline.ipynb').find((l) => l.startsWith('|condition|'))!;
    expect(header).toContain('|harm rate|base rate|false-prune rate|');
  });

  it("frontier's sweep chart draws the harm rate, and prints the false-prune rate only beside the base rate", () => {
    const frontier = text('frontier.ipynb');
    expect(frontier).toContain('Parameter sweeps: harm rate against token reduction');
    expect(frontier).not.toMatch(/field: 'fpr/);
    expect(frontier).not.toContain('false-prune rate against');
    expect(frontier).toContain("y: { field: 'harmLo', type: 'quantitative' }, y2: { field: 'harmHi' }");
    const header = shown('frontier.ipynb').find((l) => l.startsWith('|curve|'))!;
    expect(header).toContain('|harm rate|base rate|false-prune rate|');
    // One colour per curve: with fewer, vega-lite reuses a colour and two curves read as one.
    const curves = new Set(
      shown('frontier.ipynb')
        .filter((l) => l.startsWith('|') && !l.startsWith('|curve|') && !l.startsWith('|:-'))
        .map((l) => l.split('|')[1]),
    );
    const range = /scale: \{ range: \[([^\]]*)\] \}/.exec(frontier)![1]!.split(',');
    expect(range.length).toBeGreaterThanOrEqual(curves.size);
    const chart = shown('frontier.ipynb').join('');
    expect(chart).toContain('harm rate against token reduction');
    expect(chart).not.toContain('false-prune rate against');
  });
});
