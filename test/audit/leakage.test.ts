// The leak audit: its AUC against values computed by hand and by brute force over every pair, and the audit itself
// on corpora whose leak is known: ids that spell the label must fail, labels independent of every feature must pass.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rocAuc } from '../../src/audit/auc.js';
import { fitScorer } from '../../src/audit/classifiers.js';
import { FEATURES, idTokens, wordNgrams } from '../../src/policy/controls/features.js';
import { removableAlone } from '../../src/audit/labels.js';
import { AUDIT_FEATURES, auditLeakage, auditRows, halfOf, LEAKAGE_CSV_COLUMNS } from '../../src/audit/leakage.js';
import { doublingBin, LINE_FEATURES, linesOf, uniqueLineCount } from '../../src/audit/line-features.js';
import { buildView } from '../../src/fixture/view.js';
import { OraclePoint } from '../../src/fixture/schema.js';
import { cli } from '../support/cli.js';
import { syntheticCorpus, writeSynthetic } from '../support/synthetic.js';

const chars = (text: string) => text.length;

/** AUC as its definition states it: over every (positive, negative) pair, 1 when the positive scores higher, 1/2 on a tie. */
function pairwiseAuc(scores: readonly number[], labels: readonly boolean[]): number | null {
  let wins = 0;
  let pairs = 0;
  scores.forEach((p, i) => {
    if (!labels[i]) return;
    scores.forEach((n, j) => {
      if (labels[j]) return;
      pairs += 1;
      wins += p > n ? 1 : p === n ? 0.5 : 0;
    });
  });
  return pairs === 0 ? null : wins / pairs;
}

describe('rocAuc (Mann–Whitney)', () => {
  it('matches hand-computed values', () => {
    // positives 0.35 and 0.8 against negatives 0.1 and 0.4: 0.35 beats 0.1 only, 0.8 beats both: 3 of 4 pairs.
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [false, false, true, true])).toBe(0.75);
    // positives 1 and 2 against negatives 1 and 0: the tie 1-1 counts one half: (0.5 + 1 + 1 + 1) / 4.
    expect(rocAuc([1, 1, 2, 0], [true, false, true, false])).toBe(0.875);
    // a perfect ranking, a reversed one, and one score for everything
    expect(rocAuc([3, 4, 1, 2], [true, true, false, false])).toBe(1);
    expect(rocAuc([3, 4, 1, 2], [false, false, true, true])).toBe(0);
    expect(rocAuc([7, 7, 7, 7, 7], [true, false, false, true, false])).toBe(0.5);
    // three tied groups: pos {2,2,5} neg {2,1,5}: 2 vs (2,1,5) = .5+1+0 twice = 3, 5 vs (2,1,5) = 1+1+.5 = 2.5 → 5.5/9
    expect(rocAuc([2, 2, 5, 2, 1, 5], [true, true, true, false, false, false])).toBeCloseTo(5.5 / 9, 12);
  });

  it('is undefined when a class is empty', () => {
    expect(rocAuc([1, 2], [true, true])).toBeNull();
    expect(rocAuc([1, 2], [false, false])).toBeNull();
    expect(rocAuc([], [])).toBeNull();
  });

  it('equals the pairwise count on any scores with ties', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.boolean()), { minLength: 1, maxLength: 40 }),
        (rows) => {
          const scores = rows.map(([s]) => s);
          const labels = rows.map(([, l]) => l);
          const fast = rocAuc(scores, labels);
          const slow = pairwiseAuc(scores, labels);
          if (slow === null) expect(fast).toBeNull();
          else expect(fast).toBeCloseTo(slow, 12);
        },
      ),
    );
  });
});

describe('the features', () => {
  it('split ids at non-alphanumerics and digit runs, dropping the digits', () => {
    expect(idTokens('f2-read1-c')).toEqual(['c', 'f', 'read']);
    expect(idTokens('x31-r')).toEqual(['r', 'x']);
    expect(idTokens('u-task')).toEqual(['task', 'u']);
    expect(idTokens('0af3')).toEqual(['af']);
  });

  it('hash word unigrams and bigrams, each once, case-insensitively', () => {
    expect(wordNgrams('Build build OK')).toEqual(wordNgrams('build build ok'));
    // build, ok, "build build", "build ok"
    expect(wordNgrams('build build ok')).toHaveLength(4);
  });

  it('declare ids, tool, turn, position, age, length and phrasing illegitimate; status, side effects and flags legitimate', () => {
    const legit = Object.fromEntries(FEATURES.map((f) => [f.name, f.legitimate]));
    expect(legit).toMatchObject({
      subgoal: true,
      id: false,
      tool: false,
      turn: false,
      position: false,
      age: false,
      length: false,
      'turn-size': false,
      'turn-kinds': false,
      'turn-place': false,
      ngrams: false,
      status: true,
      'side-effect': true,
      flags: true,
      kind: true,
      origin: true,
      role: true,
    });
    for (const f of FEATURES) expect(f.why.length).toBeGreaterThan(20);
  });
});

describe('the line-level features', () => {
  const view = (...contents: string[]) =>
    buildView(
      syntheticCorpus({ leak: 'none', fixtures: 1, items: contents.length, seed: 'lines' }).map(({ fixture }) => ({
        ...fixture,
        items: fixture.items.map((it, i) => ({ ...it, content: contents[i]! })),
      }))[0]!,
      'p1',
      chars,
    );

  it("read an item's distinct trimmed lines of 12 to 200 characters", () => {
    expect(linesOf(`  a line of words\n\nshort\nanother line here \na line of words\n${'x'.repeat(201)}`)).toEqual([
      'a line of words',
      'another line here',
    ]);
  });

  it('count the lines no other item in the context holds anywhere in its content', () => {
    const v = view(
      'a shared line\nmy own line here',
      'a shared line',
      '  my own line here  \nonly here, twelve+\nalso only here!',
      'prefix: a shared line, and more',
      'ok',
    );
    // The first item's lines are both held elsewhere ("my own line here" by the third, trimmed); the second's by the
    // first and the fourth (inside a longer line); the fourth holds a longer line nobody else holds; "ok" is too short.
    expect([0, 1, 2, 3, 4].map((i) => uniqueLineCount(v, i))).toEqual([0, 0, 2, 1, 0]);
  });

  it('cross a mark with the tool name and kind as one category, counts on a doubling scale', () => {
    expect([0, 1, 2, 3, 4, 7, 8].map(doublingBin)).toEqual([0, 1, 2, 2, 4, 4, 8]);
    const v = view('a first line here\nb second line here\nc third line here', 'a first line here');
    const value = (name: string, i: number) => LINE_FEATURES.find((f) => f.name === name)!.of(v, i);
    expect(value('unique-line', 1)).toEqual({ type: 'category', value: 'no' });
    expect(value('unique-lines', 0)).toEqual({ type: 'number', value: 2 });
    expect(value('unique-line × tool', 0)).toEqual({ type: 'category', value: 'yes | shell' });
    expect(value('unique-line × kind', 1)).toEqual({ type: 'category', value: 'no | tool-result' });
    expect(value('unique-lines × tool', 0)).toEqual({ type: 'category', value: '2 | shell' });
  });

  it("are audited after the controls' features, all judged", () => {
    expect(AUDIT_FEATURES.map((f) => f.name)).toEqual([...FEATURES, ...LINE_FEATURES].map((f) => f.name));
    for (const f of LINE_FEATURES) {
      expect(f.legitimate, f.name).toBe(false);
      expect(f.why.length).toBeGreaterThan(20);
    }
  });
});

describe('the label', () => {
  it('is "removable alone": listed removable, or a spare copy of a redundant group; partial and unnamed items are necessary', () => {
    const point = OraclePoint.parse({
      prunePoint: 'p',
      removable: ['a'],
      partial: [{ itemId: 'b', residue: ['tool'] }],
      redundantGroups: [
        { items: ['c', 'd'], keep: 1 },
        { items: ['e', 'f'], keep: 2 },
      ],
    });
    expect([...removableAlone(point)].sort()).toEqual(['a', 'c', 'd']);
  });
});

describe('the classifiers', () => {
  it('score a category by its smoothed training rate and an unseen one at the base rate', () => {
    const cat = (value: string) => ({ type: 'category' as const, value });
    const score = fitScorer([cat('a'), cat('a'), cat('b'), cat('b')], [true, true, false, true]);
    expect(score(cat('a'))).toBeGreaterThan(score(cat('b')));
    expect(score(cat('never'))).toBe(0.75);
  });

  it('give tokens never seen in training no weight, so length alone does not move a score', () => {
    const tok = (...value: string[]) => ({ type: 'tokens' as const, value });
    const score = fitScorer([tok('x'), tok('y')], [true, false]);
    expect(score(tok('x', 'new1', 'new2'))).toBe(score(tok('x')));
    expect(score(tok('x'))).toBeGreaterThan(score(tok('y')));
  });
});

describe('the audit', () => {
  it('splits by fixture, deterministically, into two non-empty halves', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `gen-${i}`);
    const halves = ids.map((id) => halfOf(id, 1));
    expect(halves).toEqual(ids.map((id) => halfOf(id, 1)));
    expect(new Set(halves)).toEqual(new Set(['A', 'B']));
    expect(ids.map((id) => halfOf(id, 2))).not.toEqual(halves);
  });

  it('fails a corpus whose ids spell the label, with AUC about 1 on id', () => {
    const rows = auditRows(syntheticCorpus({ leak: 'id', fixtures: 30, items: 40, seed: 'leaky' }), chars);
    const report = auditLeakage(rows, { seed: 7, maxAuc: 0.6 });
    const id = report.features.find((f) => f.feature === 'id')!;
    expect(id.auc).toBeGreaterThan(0.99);
    expect(id.verdict).toBe('FAIL');
    expect(report.failed).toEqual(['id']);
  });

  it('passes a corpus whose labels are independent of every feature, every AUC about 0.5', () => {
    const rows = auditRows(syntheticCorpus({ leak: 'none', fixtures: 40, items: 40, seed: 'clean' }), chars);
    const report = auditLeakage(rows, { seed: 7, maxAuc: 0.6 });
    expect(report.failed).toEqual([]);
    for (const f of report.features) {
      expect(f.auc === null || Math.abs(f.auc - 0.5) < 0.06, `${f.feature}: ${String(f.auc)}`).toBe(true);
      if (!f.legitimate) expect(f.verdict).toBe('PASS');
    }
  });

  it('finds a turn-layout leak in turn-size and turn-kinds, and nothing there in a corpus of one item per turn', () => {
    const layout = auditLeakage(
      auditRows(syntheticCorpus({ leak: 'layout', fixtures: 40, items: 40, seed: 'piles' }), chars),
      { seed: 7, maxAuc: 0.6 },
    );
    expect(layout.failed).toEqual(expect.arrayContaining(['turn-size', 'turn-kinds']));
    expect(layout.failed).not.toContain('id');
    const clean = auditLeakage(
      auditRows(syntheticCorpus({ leak: 'none', fixtures: 40, items: 40, seed: 'clean' }), chars),
      { seed: 7, maxAuc: 0.6 },
    );
    for (const name of ['turn-size', 'turn-kinds'])
      expect(clean.features.find((f) => f.feature === name)!.verdict).toBe('PASS');
  });

  it('finds a leak in where an item sits in its turn, and nothing there in the same layout without it', () => {
    const order = auditLeakage(
      auditRows(syntheticCorpus({ leak: 'order', fixtures: 40, items: 40, seed: 'first' }), chars),
      { seed: 7, maxAuc: 0.6 },
    );
    expect(order.failed).toContain('turn-place');
    // Two items to every turn: how many share it says nothing.
    expect(order.failed).not.toContain('turn-size');
    const pairs = auditLeakage(
      auditRows(syntheticCorpus({ leak: 'pairs', fixtures: 40, items: 40, seed: 'first' }), chars),
      { seed: 7, maxAuc: 0.6 },
    );
    const place = pairs.features.find((f) => f.feature === 'turn-place')!;
    expect(place.verdict).toBe('PASS');
    expect(Math.abs(place.auc! - 0.5)).toBeLessThan(0.06);
  });

  it('finds a leak in whether an item holds a line of its own, alone and crossed, but not in its words', () => {
    const report = auditLeakage(
      auditRows(syntheticCorpus({ leak: 'lines', fixtures: 40, items: 40, seed: 'copies' }), chars),
      { seed: 7, maxAuc: 0.6 },
    );
    expect(report.failed).toEqual(
      expect.arrayContaining(['unique-line', 'unique-lines', 'unique-line × tool', 'unique-line × kind']),
    );
    expect(report.failed).not.toContain('id');
    const clean = auditLeakage(
      auditRows(syntheticCorpus({ leak: 'none', fixtures: 40, items: 40, seed: 'clean' }), chars),
      { seed: 7, maxAuc: 0.6 },
    );
    for (const f of LINE_FEATURES) expect(clean.features.find((x) => x.feature === f.name)!.verdict).toBe('PASS');
  });

  it('finds a positional leak in position, age and turn but not in ids', () => {
    const rows = auditRows(syntheticCorpus({ leak: 'position', fixtures: 30, items: 30, seed: 'old' }), chars);
    const report = auditLeakage(rows, { seed: 7, maxAuc: 0.6 });
    expect(report.failed).toEqual(expect.arrayContaining(['position', 'age', 'turn']));
    expect(report.failed).not.toContain('id');
  });
});

describe('npm run audit:leakage', () => {
  it('writes the table, names the leaking feature and exits 1 on a leaky corpus', async () => {
    const dir = writeSynthetic({ leak: 'id', fixtures: 20, items: 30, seed: 'cli-leaky' });
    const r = await cli(['audit-leakage', '--fixtures', dir, '--out', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[PL_AUDIT_LEAKAGE]');
    expect(r.stderr).toMatch(/id \(AUC 1\.000\)/);
    const csv = readFileSync(join(dir, 'out', 'audit', 'leakage.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe(LEAKAGE_CSV_COLUMNS.join(','));
    expect(csv.find((l) => l.startsWith('id,'))).toContain(',FAIL,');
    expect(readFileSync(join(dir, 'out', 'audit', 'leakage.md'), 'utf8')).toContain('| id | no |');
  });

  it('exits 0 on a corpus that does not leak, and is deterministic', async () => {
    const dir = writeSynthetic({ leak: 'none', fixtures: 20, items: 30, seed: 'cli-clean' });
    const first = await cli(['audit-leakage', '--fixtures', dir, '--out', join(dir, 'a')]);
    const second = await cli(['audit-leakage', '--fixtures', dir, '--out', join(dir, 'b')]);
    expect(first.code).toBe(0);
    expect(readFileSync(join(dir, 'a', 'audit', 'leakage.csv'), 'utf8')).toBe(
      readFileSync(join(dir, 'b', 'audit', 'leakage.csv'), 'utf8'),
    );
    expect(second.stdout).toContain('Result: PASS');
  });

  it('refuses a bar outside [0.5, 1] and fixtures without oracles, writing nothing', async () => {
    const dir = writeSynthetic({ leak: 'none', fixtures: 2, items: 5, seed: 'bad' });
    const bad = await cli(['audit-leakage', '--fixtures', dir, '--out', join(dir, 'o'), '--max-auc', '0.3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('[PL_USAGE_BAD_VALUE]');
    expect(existsSync(join(dir, 'o'))).toBe(false);
    const traces = mkdtempSync(join(tmpdir(), 'prunelab-imported-'));
    const { fixture } = syntheticCorpus({ leak: 'none', fixtures: 1, items: 3, seed: 'imported' })[0]!;
    const imported = {
      format: 'swe-agent',
      sourceFile: 'run.traj',
      sourceSha256: '0'.repeat(64),
      importerVersion: '1.0.0',
      timestamps: 'synthetic',
      redaction: { enabled: true, counts: {} },
    };
    writeFileSync(join(traces, 'trace.json'), JSON.stringify({ ...fixture, imported }));
    const none = await cli(['audit-leakage', '--fixtures', traces, '--out', join(traces, 'o')]);
    expect(none.stderr).toContain('[PL_AUDIT_NO_ORACLES]');
    expect(none.code).toBe(2);
    expect(existsSync(join(traces, 'o'))).toBe(false);
  });
});
