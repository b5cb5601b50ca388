// The viewer's page model, without a browser: every count a page shows is a count of decision records, a column is
// refused when the records do not describe the context, the oracle's reasons follow its ground truth, and the site
// fetches nothing from outside itself.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DecisionRecord, Manifest, PointMeasures } from '../../src/artifacts/schema.js';
import { sha256 } from '../../src/fixture/canonical.js';
import type { OraclePoint, PrunePoint } from '../../src/fixture/schema.js';
import { loadFixture } from '../../src/load/fixtures.js';
import { oracleJudge } from '../../src/oracle/judge.js';
import { globMatcher } from '../../src/view/build.js';
import { embeddedJson, esc } from '../../src/view/html.js';
import { conditionLogs, fixturesIn, pinnedLog } from '../../src/view/logs.js';
import { columnModel, fixturePage, CONTENT_CHARS } from '../../src/view/model.js';
import { oracleNotes } from '../../src/view/reveal.js';
import { siteFiles } from '../../src/view/site.js';
import { countStates, ITEM_STATES, stateOf } from '../../src/view/states.js';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const jsonl = <T>(file: string, parse: (v: unknown) => T): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => parse(JSON.parse(l)));

describe('item states', () => {
  it('names each decision by what it did to the item; a gate KEEP is protected, a plain KEEP retained', () => {
    expect(stateOf({ decision: 'KEEP', rule: 'protection', removal: null })).toBe('protected');
    expect(stateOf({ decision: 'KEEP', rule: 'none', removal: null })).toBe('retained');
    expect(stateOf({ decision: 'KEEP', rule: 'observation-masking', removal: null })).toBe('retained');
    expect(stateOf({ decision: 'PRUNE', rule: 'exact-redundancy', removal: 'whole' })).toBe('removed');
    expect(stateOf({ decision: 'PRUNE', rule: 'errored-input-residue', removal: 'residue' })).toBe('residue');
    expect(stateOf({ decision: 'DEFER', rule: 'exact-redundancy', removal: null })).toBe('deferred');
    expect(stateOf({ decision: 'ABSTAIN', rule: 'protection', removal: null })).toBe('abstained');
  });

  it('counts add up to the records, and each decision to its states', () => {
    const rec = fc.record({
      decision: fc.constantFrom('KEEP', 'PRUNE', 'DEFER', 'ABSTAIN' as const),
      rule: fc.constantFrom('protection', 'none', 'exact-redundancy'),
      removal: fc.constantFrom('whole', 'residue', null),
    });
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 60 }), (records) => {
        const c = countStates(records.map(stateOf));
        const n = (d: string) => records.filter((r) => r.decision === d).length;
        expect(ITEM_STATES.reduce((s, k) => s + c[k], 0)).toBe(records.length);
        expect(c.retained + c.protected).toBe(n('KEEP'));
        expect(c.removed + c.residue).toBe(n('PRUNE'));
        expect(c.deferred).toBe(n('DEFER'));
        expect(c.abstained).toBe(n('ABSTAIN'));
      }),
    );
  });
});

describe('the page model over the committed canonical results', () => {
  const condition = 'ladder-0-3';
  const records = jsonl(`results/${condition}/decisions.jsonl`, (v) => DecisionRecord.parse(v));
  const points = jsonl(`results/${condition}/points.jsonl`, (v) => PointMeasures.parse(v));
  const manifest = Manifest.parse(JSON.parse(readFileSync('results/manifest.json', 'utf8')));
  const ids = fixturesIn(readFileSync(`results/${condition}/decisions.jsonl`, 'utf8'));

  it('finds the fixtures of a plain log in the order the run wrote them', () => {
    expect(ids).toEqual([...new Set(records.map((r) => r.fixture))]);
    expect(ids.length).toBeGreaterThan(10);
  });

  it('per fixture and prune point: one decision per item in context, in trajectory order, and state counts that agree with the measures', () => {
    for (const id of ids) {
      const entry = manifest.fixtures.find((f) => f.id === id)!;
      const loaded = loadFixture(entry.file, '.');
      const page = fixturePage(loaded.fixture, loaded.oracle, [
        {
          name: condition,
          layer: 'B',
          rung: 3,
          records: records.filter((r) => r.fixture === id),
          points: points.filter((p) => p.fixture === id),
          logged: true,
          file: condition,
        },
      ]);
      for (const point of page.points) {
        const column = page.conditions[0]!.columns[point.id]!;
        expect(column.unlogged).toBeUndefined();
        const counts = column.counts!;
        const mine = records.filter((r) => r.fixture === id && r.prunePoint === point.id);
        expect(column.decisions.map((d) => d.itemId)).toEqual(point.itemIds);
        expect(column.decisions.length).toBe(mine.length);
        for (const s of ITEM_STATES)
          expect(counts[s], `${id} ${point.id} ${s}`).toBe(mine.filter((r) => stateOf(r) === s).length);
        // An independent count: the run's own point measures.
        const m = points.find((p) => p.fixture === id && p.prunePoint === point.id)!;
        expect(counts.retained + counts.protected).toBe(m.decisions.keep);
        expect(counts.removed + counts.residue).toBe(m.decisions.prune);
        expect(counts.deferred).toBe(m.decisions.defer);
        expect(counts.abstained).toBe(m.decisions.abstain);
        // The oracle's verdict the page reveals is the one the record was scored with.
        for (const d of mine) expect(point.hidden!.items[d.itemId]!.verdict).toBe(d.oracle.verdict);
      }
      for (const item of page.items) expect(item.content.length).toBeLessThanOrEqual(CONTENT_CHARS);
    }
  });

  it('refuses a column whose records do not describe the context: a decision missing, one too many, one twice', () => {
    const mine = records.filter((r) => r.fixture === ids[0] && r.prunePoint === records[0]!.prunePoint);
    const items = mine.map((r) => r.itemId);
    expect(() => columnModel(items, mine.slice(1), undefined, 'here')).toThrow(/no decision for/);
    expect(() => columnModel(items.slice(1), mine, undefined, 'here')).toThrow(/not in context/);
    expect(() => columnModel(items, [...mine, mine[0]!], undefined, 'here')).toThrow(/two decisions/);
    expect(columnModel(items, [...mine].reverse(), undefined, 'here').decisions.map((d) => d.itemId)).toEqual(items);
  });
});

describe('the oracle revealed', () => {
  const point: Pick<PrunePoint, 'downstream' | 'visible'> = {
    visible: {
      pinned: [],
      protectedTools: [],
      pendingSteps: [],
      workUnits: [],
      obligations: [
        {
          id: 'ob-vis',
          description: 'visible',
          neededAtTurn: 1,
          needs: { itemIds: ['n-visible'], strings: [] },
          pointerSatisfies: false,
          rereadSatisfies: false,
          probe: { question: 'q', expectedAnswer: 'a' },
        },
      ],
    },
    downstream: [
      {
        id: 'ob-later',
        description: 'later',
        neededAtTurn: 9,
        needs: { itemIds: [], strings: ['token-7'] },
        pointerSatisfies: false,
        rereadSatisfies: false,
        probe: { question: 'q', expectedAnswer: 'a' },
      },
    ],
  };
  const oracle: OraclePoint = {
    prunePoint: 'p1',
    removable: ['r'],
    partial: [{ itemId: 'part', residue: ['errorType', 'message'] }],
    redundantGroups: [{ items: ['c1', 'c2'], keep: 1 }],
    keptBecause: [{ itemId: 'n-kept', reason: 'the task statement' }],
    rationale: 'why',
  };
  const items = ['r', 'part', 'c1', 'c2', 'n-later', 'n-visible', 'n-kept', 'n-plain'].map((id) => ({
    id,
    content: id === 'n-later' ? 'holds token-7 here' : `payload of ${id}`,
  }));
  const notes = oracleNotes(point, oracle, items);

  it("gives each item the judge's own verdict", () => {
    const judge = oracleJudge(oracle);
    for (const i of items) expect(notes.get(i.id)!.verdict).toBe(judge.verdict(i.id));
  });

  it('says why: no obligation lost, the residue to keep, the copies, and which obligation needs a necessary item', () => {
    expect(notes.get('r')!.reason).toMatch(/loses no obligation/);
    expect(notes.get('part')!.reason).toContain('errorType, message');
    expect(notes.get('c1')!.reason).toContain('c1, c2');
    expect(notes.get('n-later')!.reason).toContain('downstream obligation ob-later');
    expect(notes.get('n-visible')!.reason).toContain('visible obligation ob-vis');
    expect(notes.get('n-kept')!.reason).toContain('the task statement');
    expect(notes.get('n-plain')!.verdict).toBe('necessary');
    expect(notes.get('n-plain')!.reason).toMatch(/not listed removable/);
  });
});

describe('the site', () => {
  it('keeps payloads data: no "</script>" closes the embedded JSON, and text is escaped', () => {
    const json = embeddedJson({ content: '</script><script>alert(1)</script>' });
    expect(json).not.toContain('</script>');
    expect(JSON.parse(json)).toEqual({ content: '</script><script>alert(1)</script>' });
    expect(esc('<a href="x">&\'')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
  });

  it('refers to nothing outside itself: no script, style or image from the network', () => {
    const files = siteFiles({
      label: 'results',
      exploratory: true,
      summaries: [],
      tables: [],
      charts: [{ name: 'c', title: 't', caption: 'cap', svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' }],
      pages: [],
      leftOut: null,
      scene: { missing: 'none here' },
      defaultCondition: 'raw',
    });
    for (const [file, text] of files) {
      expect(text, file).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
      expect(text, file).not.toMatch(/\bfetch\(|XMLHttpRequest|import\(/);
    }
    expect([...files.keys()].sort()).toEqual([
      'assets/app.js',
      'assets/style.css',
      'charts/c.svg',
      'index.html',
      'scene.html',
    ]);
  });

  it('selects fixtures by glob: * and ? only, everything else literal', () => {
    const m = globMatcher(['gen-00*', 'rule-?']);
    expect(['gen-0001', 'gen-00', 'rule-a'].every(m)).toBe(true);
    expect(['gen-0100', 'rule-ab', 'xgen-0001'].some(m)).toBe(false);
    expect(globMatcher(['a.b'])('aXb')).toBe(false);
  });
});

describe('compressed logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-view-logs-'));
  temps.push(dir);
  mkdirSync(join(dir, 'c'));
  const text = '{"fixture":"gen-0001","x":1}\n{"fixture":"gen-0002","x":2}\n';
  const manifest = {
    outputs: [{ file: 'c/decisions.generated.jsonl.gz', sha256: sha256(Buffer.from(text)) }],
  } as Manifest;

  it('are read only when their decompressed text hashes as pinned', () => {
    writeFileSync(join(dir, 'c/decisions.generated.jsonl.gz'), gzipSync(text));
    expect(pinnedLog(dir, 'res', manifest, 'c/decisions.generated.jsonl.gz')).toBe(text);
    writeFileSync(join(dir, 'c/decisions.generated.jsonl.gz'), gzipSync(text.replace('"x":2', '"x":3')));
    expect(() => pinnedLog(dir, 'res', manifest, 'c/decisions.generated.jsonl.gz')).toThrow(
      /res\/c\/decisions\.generated\.jsonl\.gz: changed/,
    );
    rmSync(join(dir, 'c/decisions.generated.jsonl.gz'));
    expect(() => pinnedLog(dir, 'res', manifest, 'c/decisions.generated.jsonl.gz')).toThrow(
      /res\/c\/decisions\.generated\.jsonl\.gz: missing/,
    );
    expect(pinnedLog(dir, 'res', manifest, 'c/not-pinned.jsonl')).toBeUndefined();
  });
});

/**
 * Two fixtures of the committed raw logs, a and b, laid out in a results folder with a's logs plain and b's in the
 * compressed tier: its decisions too when `bLogged`, else its points alone, as a default run writes them.
 */
function tieredLogs(prefix: string, bLogged: boolean) {
  const lines = readFileSync('results/raw/decisions.jsonl', 'utf8').split('\n').filter(Boolean);
  const points = readFileSync('results/raw/points.jsonl', 'utf8').split('\n').filter(Boolean);
  const [a, b] = fixturesIn(lines.join('\n'));
  const of = (list: string[], id: string) => `${list.filter((l) => l.includes(`"fixture":"${id}"`)).join('\n')}\n`;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  mkdirSync(join(dir, 'raw'));
  const files: [string, string][] = [
    ['raw/decisions.jsonl', of(lines, a!)],
    ['raw/points.jsonl', of(points, a!)],
    ...(bLogged ? [['raw/decisions.generated.jsonl.gz', of(lines, b!)] as [string, string]] : []),
    ['raw/points.generated.jsonl.gz', of(points, b!)],
  ];
  for (const [f, text] of files) writeFileSync(join(dir, f), f.endsWith('.gz') ? gzipSync(text) : text);
  const manifest = { outputs: files.map(([file, text]) => ({ file, sha256: sha256(Buffer.from(text)) })) } as Manifest;
  return { a: a!, b: b!, dir, manifest, bPoints: of(points, b!) };
}

describe('a condition whose fixtures span both tiers', () => {
  const { a, b, dir, manifest } = tieredLogs('prunelab-view-tiers-', true);

  it('reads the plain tier, and the compressed one only for a fixture the plain one lacks', () => {
    const both = conditionLogs(dir, 'res', manifest, 'raw', new Set([a!, b!]));
    expect([...both.keys()].sort()).toEqual([a!, b!].sort());
    expect(both.get(b!)!.records.every((r) => r.fixture === b)).toBe(true);
    expect(both.get(b!)!.points.length).toBeGreaterThan(0);
    rmSync(join(dir, 'raw/decisions.generated.jsonl.gz'));
    expect([...conditionLogs(dir, 'res', manifest, 'raw', new Set([a!])).keys()]).toEqual([a]);
    expect(() => conditionLogs(dir, 'res', manifest, 'raw', new Set([b!]))).toThrow(
      /decisions\.generated\.jsonl\.gz: missing/,
    );
  });
});

describe('a generated fixture whose decisions were not logged (--decision-log committed)', () => {
  const { a, b, dir, manifest, bPoints } = tieredLogs('prunelab-view-unlogged-', false);
  const committed = Manifest.parse(JSON.parse(readFileSync('results/manifest.json', 'utf8')));

  it('still gives its points, marked unlogged, and its page shows the measures and how to log the records', () => {
    const read = conditionLogs(dir, 'res', manifest, 'raw', new Set([a!, b!]));
    expect(read.get(a!)!.logged).toBe(true);
    const found = read.get(b!)!;
    expect(found.logged).toBe(false);
    expect(found.records).toEqual([]);
    const measures = bPoints
      .split('\n')
      .filter(Boolean)
      .map((l) => PointMeasures.parse(JSON.parse(l)));
    expect(found.points).toEqual(measures);
    const loaded = loadFixture(committed.fixtures.find((f) => f.id === b)!.file, '.');
    const page = fixturePage(loaded.fixture, loaded.oracle, [
      { name: 'raw', layer: 'control', rung: null, ...found, file: 'res/raw' },
    ]);
    expect(page.points.length).toBe(measures.length);
    for (const point of page.points) {
      const column = page.conditions[0]!.columns[point.id]!;
      const m = measures.find((p) => p.prunePoint === point.id)!;
      expect(column.decisions).toEqual([]);
      expect(column.counts).toBeNull();
      expect(column.tokens).toEqual(m.tokens);
      expect(column.obligations).toEqual(m.obligationOutcomes);
      expect(column.unlogged?.decisions).toEqual(m.decisions);
      expect(column.unlogged?.note).toContain('not logged');
      expect(column.unlogged?.note).toContain('npm run experiment -- --decision-log all');
    }
  });
});
