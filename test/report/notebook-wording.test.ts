// What a notebook says a figure is must be what it computes: the intervals are fixture-cluster bootstraps (never
// Wilson), and the safety threshold is read on the harm rate (meetsSafety), not on the false-prune rate.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const text = (name: string) =>
  (JSON.parse(readFileSync(`notebooks/${name}`, 'utf8')) as { cells: { source: string[] }[] }).cells
    .map((c) => c.source.join(''))
    .join('\n');

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
});
