// Shared lookups for the corpus tests: the parsed fixture of a composition, where an item stands in an oracle
// point, and compositions that contain a given family variant.
import { composeFixture, type Composed } from '../../src/corpus/compose.js';
import type { FamilyName } from '../../src/corpus/family.js';
import { Fixture, type Fixture as FixtureT, type Item, type OraclePoint } from '../../src/fixture/schema.js';

export type Standing = 'removable' | 'partial' | 'redundant-copy' | 'necessary';

export function standing(point: OraclePoint, id: string): Standing {
  if (point.removable.includes(id)) return 'removable';
  if (point.partial.some((p) => p.itemId === id)) return 'partial';
  if (point.redundantGroups.some((g) => g.items.includes(id))) return 'redundant-copy';
  return 'necessary';
}

export interface Case {
  readonly composed: Composed;
  readonly fixture: FixtureT;
  /** The episode's drawn tag: its obligations are `ob-<tag>-...`, its work unit `wu-<tag>`. */
  readonly prefix: string;
  readonly placement: Composed['placements'][number];
  /** The episode's own items, in trajectory order. */
  readonly items: Item[];
}

/**
 * Compositions of seed 7 by index, composed once per test file: every family's cases search the same indexes from
 * 0, and composing is the cost. A case gets its own copy, so what one test does to a case no other test sees.
 */
const composedCache = new Map<number, Composed>();
function composedAt(index: number): Composed {
  let composed = composedCache.get(index);
  if (!composed) composedCache.set(index, (composed = composeFixture(7, index)));
  return composed;
}

/** Up to `want` compositions (seed 7, increasing index) holding a live episode of the family in the given variant. */
export function casesOf(family: FamilyName, variant: string, want = 2, limit = 400): Case[] {
  const out: Case[] = [];
  for (let i = family === 'dormant-dependency' ? 0 : 0; i < limit && out.length < want; i += 1) {
    const shared = composedAt(i);
    const at = shared.placements.findIndex((p) => p.family === family && p.variant === variant && p.role === 'episode');
    if (at < 0) continue;
    const composed = structuredClone(shared);
    const placement = composed.placements[at]!;
    const fixture = Fixture.parse(JSON.parse(JSON.stringify(composed.fixture)));
    const own = new Set(placement.items);
    out.push({
      composed,
      fixture,
      prefix: placement.tag,
      placement,
      items: fixture.items.filter((it) => own.has(it.id)),
    });
  }
  if (out.length === 0) throw new Error(`no composition with ${family}/${variant} in ${limit} tries`);
  return out;
}

/** The prune point the episode was placed before, with its oracle point. */
export function targetPoint(c: Case) {
  const point = c.fixture.prunePoints.find((p) => p.turn === c.placement.point)!;
  const oracle = c.composed.oracle.points.find((p) => p.prunePoint === point.id)!;
  return { point, oracle };
}
