// Every relative link of the README and the docs/ pages leads somewhere: the file exists and, when the link names a
// heading (#anchor), the page has a heading of that anchor (GitHub's rule: lower case, punctuation dropped, spaces
// to hyphens). The README stays about 10 KB: the rest is in docs/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Pages other branches write (the viewer, the comparators' defaults, bringing your framework's pruner): the README
 * links to them already; until they are merged they may be absent, and once present they are checked like any other.
 */
const WRITTEN_ELSEWHERE = new Set(['docs/bring-your-pruner.md', 'docs/comparators.md', 'docs/viewer.md']);

const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown outside fenced code blocks and inline code spans, where a bracket is text, not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
}

describe('the links of the README and docs/', () => {
  it('reads a heading as GitHub anchors it', () => {
    expect(anchorOf("The study's current output")).toBe('the-studys-current-output');
    expect(anchorOf('Real traces: import and ecology')).toBe('real-traces-import-and-ecology');
    expect(anchorOf('Batch, shards and the estimate')).toBe('batch-shards-and-the-estimate');
  });

  for (const page of PAGES) {
    it(`${page}: every relative link resolves, anchors included`, () => {
      const broken: string[] = [];
      const links = linksOf(readFileSync(page, 'utf8'));
      if (page === 'README.md') expect(links.length).toBeGreaterThan(20);
      for (const link of links) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target =
          path === ''
            ? page
            : normalize(join(dirname(page), path))
                .split('\\')
                .join('/');
        if (!existsSync(target)) {
          if (!WRITTEN_ELSEWHERE.has(target)) broken.push(`${link} (no file ${target})`);
          continue;
        }
        if (anchor === undefined || statSync(target).isDirectory() || !target.endsWith('.md')) continue;
        if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link} (no heading #${anchor})`);
      }
      expect(broken).toEqual([]);
    });
  }

  it('finds a broken link when there is one (the check can fail)', () => {
    expect(linksOf('see [a](docs/nowhere.md) and `[b](not-a-link.md)`\n```\n[c](in-code.md)\n```\n')).toEqual([
      'docs/nowhere.md',
    ]);
    expect(anchorsOf('# Title\n```\n# not a heading\n```\n## Sub part\n')).toEqual(new Set(['title', 'sub-part']));
  });

  it('holds no merge conflict left in a page', () => {
    for (const page of PAGES) {
      const markers = readFileSync(page, 'utf8')
        .split('\n')
        .filter((line) => /^(<{7} |={7}$|>{7} )/.test(line));
      expect(markers, page).toEqual([]);
    }
  });

  it('keeps the README to about 10 KB, with the test command CI runs', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme.length).toBeLessThan(12_000);
    expect(readme).toContain('npm test');
    expect(readme).toContain('npm run experiment');
    expect(readme).toContain('npm ci');
  });
});
