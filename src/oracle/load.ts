// Checks an oracle against its fixture: the oracle may only speak of prune points the fixture has and of items in
// context there, each item once. Oracles are read here and judged in judge.ts; no policy module imports either.
import { input } from '../errors.js';
import { describe, type Locate } from '../fixture/validate.js';
import type { Fixture as FixtureT, Oracle as OracleT } from '../fixture/schema.js';

export const oracleLocation: Locate = (raw, path) => {
  if (path[0] === 'points' && typeof path[1] === 'number')
    return { where: describe(raw, path, 'oracle point'), rest: path.slice(2) };
  return { where: 'oracle', rest: path };
};

export function checkOracle(o: OracleT, f: FixtureT, file: string): void {
  const fail = (where: string, field: string, problem: string): never => {
    throw input('PL_FIXTURE_FIELD', file, where, field, problem);
  };
  if (o.fixtureId !== f.id)
    fail('oracle', 'fixtureId', `names fixture "${o.fixtureId}" but the fixture's id is "${f.id}"`);
  const covered = new Set<string>();
  o.points.forEach((pt, i) => {
    const where = `oracle point "${pt.prunePoint}" (points[${i}])`;
    const point = f.prunePoints.find((p) => p.id === pt.prunePoint);
    if (!point)
      return fail(
        where,
        'prunePoint',
        `the fixture has no prune point "${pt.prunePoint}" (it has: ${f.prunePoints.map((p) => p.id).join(', ')})`,
      );
    if (covered.has(pt.prunePoint)) fail(where, 'prunePoint', 'a second oracle point for the same prune point');
    covered.add(pt.prunePoint);
    const inContext = new Set(f.items.filter((it) => it.turn <= point.turn).map((it) => it.id));
    const once = new Set<string>();
    const listed = (field: string, id: string): void => {
      if (!inContext.has(id))
        fail(where, field, `item "${id}" is not in context at prune point "${point.id}" (turn ${point.turn})`);
      if (once.has(id)) fail(where, field, `item "${id}" is listed twice in this oracle point`);
      once.add(id);
    };
    pt.removable.forEach((id, j) => listed(`removable[${j}]`, id));
    pt.partial.forEach((p, j) => listed(`partial[${j}].itemId`, p.itemId));
    // Groups may overlap (an item holding two facts each held elsewhere too), but never repeat an item nor reuse one
    // the point already calls removable or partial.
    const grouped = new Set<string>();
    pt.redundantGroups.forEach((g, j) => {
      const inGroup = new Set<string>();
      g.items.forEach((id, k) => {
        const field = `redundantGroups[${j}].items[${k}]`;
        if (inGroup.has(id)) fail(where, field, `item "${id}" is listed twice in this group`);
        inGroup.add(id);
        if (grouped.has(id)) {
          if (!inContext.has(id))
            fail(where, field, `item "${id}" is not in context at prune point "${point.id}" (turn ${point.turn})`);
        } else listed(field, id);
      });
      inGroup.forEach((id) => grouped.add(id));
      if (g.keep >= g.items.length)
        fail(where, `redundantGroups[${j}].keep`, `keeps ${g.keep} of ${g.items.length} copies, so none is removable`);
    });
    (pt.keptBecause ?? []).forEach((k, j) => listed(`keptBecause[${j}].itemId`, k.itemId));
  });
  for (const p of f.prunePoints)
    if (!covered.has(p.id)) fail('oracle', 'points', `no oracle point for prune point "${p.id}"`);
}
