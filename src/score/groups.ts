// Which redundant groups declared at different prune points of a fixture are one group, so that a fixture counts its
// units once (oncePerFixture). An oracle declares a group by its copies alone, and the copies change from point to
// point as the trajectory repeats the fact (two copies at one point, three at the next): keyed by its copies, such a
// group would be two groups. The identity is read from the fixture's whole oracle, which only scoring sees.
import { byCodeUnit } from '../fixture/canonical.js';
import { frozenMemo } from '../fixture/memo.js';
import type { Fixture, Oracle, OraclePoint } from '../fixture/schema.js';

type Group = OraclePoint['redundantGroups'][number];

/** The key a group has when nothing ties it to another point's: its copies. */
export function copiesKey(group: Group): string {
  return `group:${[...group.items].sort(byCodeUnit).join(',')}`;
}

/**
 * Per prune point id, the identity of each of its redundant groups, in declaration order. Points are taken in the
 * fixture's order; a group continues a group of an earlier point when one's copies include the other's as last
 * declared (copies joined, or copies left, but not both, since a copy that left while another joined may be a
 * different fact that shares a holder). When several could continue, the pair sharing most copies is matched first,
 * then the earlier declared group and the older identity; no identity is matched twice at one point, so two
 * overlapping groups stay two. A group that continues none is named by its copies at its first point.
 */
export function groupIdentities(fixture: Fixture, oracle: Oracle): ReadonlyMap<string, readonly string[]> {
  const known = identitiesIn(oracle);
  // An oracle speaks of one fixture (checkOracle), so the fixture adds nothing to the memo's key but its order.
  return (known.ids ??= deriveIdentities(fixture, oracle));
}

const identitiesIn = frozenMemo((_oracle: Oracle) => ({
  ids: undefined as ReadonlyMap<string, readonly string[]> | undefined,
}));

function deriveIdentities(fixture: Fixture, oracle: Oracle): Map<string, readonly string[]> {
  const order = new Map(fixture.prunePoints.map((p, i) => [p.id, i]));
  const points = [...oracle.points].sort(
    (a, b) => (order.get(a.prunePoint) ?? order.size) - (order.get(b.prunePoint) ?? order.size),
  );
  const held: { id: string; copies: ReadonlySet<string> }[] = [];
  const names = new Set<string>();
  const out = new Map<string, readonly string[]>();
  for (const point of points) {
    const groups = point.redundantGroups;
    const pairs: { g: number; h: number; shared: number }[] = [];
    groups.forEach((group, g) => {
      held.forEach((h, k) => {
        const shared = group.items.filter((id) => h.copies.has(id)).length;
        if (shared === group.items.length || shared === h.copies.size) pairs.push({ g, h: k, shared });
      });
    });
    pairs.sort((x, y) => y.shared - x.shared || x.g - y.g || x.h - y.h);
    const continues = new Map<number, number>();
    const matched = new Set<number>();
    for (const { g, h } of pairs) {
      if (continues.has(g) || matched.has(h)) continue;
      continues.set(g, h);
      matched.add(h);
    }
    const ids = groups.map((group, g) => {
      const copies = new Set(group.items);
      const h = continues.get(g);
      if (h !== undefined) {
        held[h]!.copies = copies;
        return held[h]!.id;
      }
      // Only a group whose copies some other identity once had can meet its name taken.
      let id = copiesKey(group);
      for (let n = 2; names.has(id); n += 1) id = `${copiesKey(group)}@${n}`;
      names.add(id);
      held.push({ id, copies });
      return id;
    });
    out.set(point.prunePoint, ids);
  }
  return out;
}
