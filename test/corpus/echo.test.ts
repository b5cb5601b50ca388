// Echoes: generic work written in the shape of a family's items (src/corpus/echo.ts). The rule they serve is that
// no tool or phrasing a family writes belongs to one side of the label. So, over a corpus at share 0.30: every
// family tool occurs on items labelled necessary and on items labelled removable; echoes are live and decoys alike;
// an echo never copies a line the session already holds (a piece a later step could not quote would be removable
// whatever its role); and the leak audit over a small corpus stays under its bar (test/audit/leakage.test.ts
// shows the audit fails a corpus whose ids spell the label).
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { auditLeakage, auditRows, DEFAULT_MAX_AUC } from '../../src/audit/leakage.js';
import { removableAlone } from '../../src/audit/labels.js';
import { holds } from '../../src/corpus/held.js';
import { GENERIC_WORK, type Composed } from '../../src/corpus/compose.js';
import { ECHO_PREFIX, ECHO_WEIGHTS } from '../../src/corpus/echo.js';
import { quotable } from '../../src/corpus/generic.js';
import { Fixture, type Item } from '../../src/fixture/schema.js';
import { composed } from '../support/composed.js';
import { knownLeaks } from '../support/known-leaks.js';
import { GENERATOR } from '../../src/corpus/corpus.js';

const SEED = 20261202;
const COUNT = 48;
let cached: Composed[] | undefined;
const corpus = () => (cached ??= Array.from({ length: COUNT }, (_, i) => composed(SEED, i, 0.3)));

/** Tools the generic steps of ./generic.ts never use: before echoes, only family episodes wrote them. */
const FAMILY_ONLY_TOOLS = [
  'issue_secret',
  'run_step',
  'pgbouncer_show',
  'append_notes',
  'http_get',
  'http_put',
  'psql',
];

describe('echoes', () => {
  it('every family-only tool is on items of both labels at share 0.30', () => {
    const seen = new Map<string, { removable: number; necessary: number }>();
    for (const c of corpus()) {
      const items = c.fixture['items'] as Item[];
      const points = c.fixture['prunePoints'] as { turn: number }[];
      points.forEach((p, k) => {
        const removable = removableAlone(c.oracle.points[k]!);
        for (const it of items.filter((x) => x.turn <= p.turn && x.tool)) {
          const s = seen.get(it.tool!.name) ?? { removable: 0, necessary: 0 };
          if (removable.has(it.id)) s.removable += 1;
          else s.necessary += 1;
          seen.set(it.tool!.name, s);
        }
      });
    }
    for (const tool of FAMILY_ONLY_TOOLS) {
      expect(seen.get(tool)?.necessary ?? 0, tool).toBeGreaterThan(0);
      expect(seen.get(tool)?.removable ?? 0, tool).toBeGreaterThan(0);
    }
  }, 120_000);

  it('echoes are generic work, live and decoy, and echo most families', () => {
    const echoes = corpus().flatMap((c) => c.units.filter((u) => u.variant.startsWith(ECHO_PREFIX)));
    expect(echoes.every((u) => u.family === GENERIC_WORK)).toBe(true);
    expect(echoes.some((u) => u.role === 'episode')).toBe(true);
    expect(echoes.some((u) => u.role === 'decoy')).toBe(true);
    const families = new Set(echoes.map((u) => u.variant.slice(ECHO_PREFIX.length)));
    expect(families.size).toBeGreaterThanOrEqual(ECHO_WEIGHTS.length - 2);
    for (const f of families) expect(ECHO_WEIGHTS.map(([name]) => name)).toContain(f);
  }, 120_000);

  it('every echoed item has a line that no earlier item of its session holds', () => {
    for (const c of corpus()) {
      const items = c.fixture['items'] as Item[];
      const index = new Map(items.map((it, i) => [it.id, i]));
      for (const u of c.units.filter((x) => x.variant.startsWith(ECHO_PREFIX))) {
        const own = u.items.filter((id) => items[index.get(id)!]!.turn === u.start);
        for (const id of own) {
          const at = index.get(id)!;
          const earlier = items.slice(0, at).filter((it) => !own.includes(it.id));
          const fresh = quotable(items[at]!.content).some((q) => !earlier.some((o) => holds(o, q)));
          expect(fresh, `${c.id} ${id}`).toBe(true);
        }
      }
    }
  }, 120_000);

  it("the leak audit over a small corpus at share 0.30 passes, but for the generator's known leaks", () => {
    const inputs = corpus().map((c) => ({ fixture: Fixture.parse(c.fixture), oracle: c.oracle }));
    const report = auditLeakage(auditRows(inputs, tokenCounter()), { seed: SEED, maxAuc: DEFAULT_MAX_AUC });
    // A sample of 48 fixtures may find a known leak just under the bar: at most the known ones fail.
    const known = knownLeaks(GENERATOR.version);
    expect(report.failed.filter((f) => !known.includes(f))).toEqual([]);
    for (const f of report.features.filter((x) => !x.legitimate && !known.includes(x.feature)))
      expect(f.auc!, f.feature).toBeLessThanOrEqual(DEFAULT_MAX_AUC);
  }, 120_000);
});
