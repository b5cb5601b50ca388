// Decoy units (family episodes and generic steps no later step needs) must look like live ones: same tools, kinds
// and lengths, drawn by the same builders; they differ only in whether a later step needs them. So per family the
// distributions of decoy and live items must be alike within a stated tolerance, decoy items must be removable at
// every prune point, and live episodes must still hold what their family's claims keep.
import { describe, expect, it } from 'vitest';
import { composeFixture, GENERIC_WORK, type Composed } from '../../src/corpus/compose.js';
import { FAMILY_NAMES } from '../../src/corpus/family.js';
import type { Item } from '../../src/fixture/schema.js';

const COUNT = 120;
// At 0.60 about half the units are live, so both roles are frequent enough to compare.
const list: Composed[] = [];
const corpus = () => {
  if (list.length === 0) for (let i = 0; i < COUNT; i += 1) list.push(composeFixture(31, i, 0.6));
  return list;
};

/** Total variation distance between two categorical samples. */
function tvd(a: readonly string[], b: readonly string[]): number {
  const keys = new Set([...a, ...b]);
  let d = 0;
  for (const k of keys)
    d += Math.abs(a.filter((x) => x === k).length / a.length - b.filter((x) => x === k).length / b.length);
  return d / 2;
}
const median = (xs: readonly number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;

/** The items each role wrote up to its prune point (a live unit's later step has no decoy counterpart by design). */
function opened(family: string): Record<'episode' | 'decoy', Item[]> & { units: Record<'episode' | 'decoy', number> } {
  const out = { episode: [] as Item[], decoy: [] as Item[], units: { episode: 0, decoy: 0 } };
  for (const c of corpus()) {
    const items = new Map((c.fixture['items'] as Item[]).map((it) => [it.id, it]));
    for (const u of c.units.filter((x) => x.family === family)) {
      out[u.role].push(...u.items.map((id) => items.get(id)!).filter((it) => it.turn <= u.point));
      out.units[u.role] += 1;
    }
  }
  return out;
}

// Tolerances. An episode draws its tool once for all its items, so the sample size that matters is the number of
// units, not items: two samples of one distribution over n units differ in total variation by about 1/sqrt(n), so
// the bound is 0.15 + 1/sqrt(n) for the smaller role (0.53 at 7 decoys, 0.17 for thousands of generic steps). A
// leak like v1's (removable work on tools of its own) gives 1.0.
const distance = (n: number) => 0.15 + 1 / Math.sqrt(n);
const TOLERANCE = { lengthRatio: [0.5, 2] as const };

describe('decoys are drawn like live units', () => {
  for (const family of [...FAMILY_NAMES, GENERIC_WORK]) {
    it(`${family}: decoy and live items share tools, kinds and lengths within tolerance`, () => {
      const { episode, decoy, units } = opened(family);
      expect(Math.min(units.episode, units.decoy), `${family}: both roles occur`).toBeGreaterThanOrEqual(5);
      const bound = distance(Math.min(units.episode, units.decoy));
      expect(
        tvd(
          episode.map((it) => it.tool?.name ?? '-'),
          decoy.map((it) => it.tool?.name ?? '-'),
        ),
      ).toBeLessThanOrEqual(bound);
      expect(
        tvd(
          episode.map((it) => it.kind),
          decoy.map((it) => it.kind),
        ),
      ).toBeLessThanOrEqual(bound);
      const ratio = median(episode.map((it) => it.content.length)) / median(decoy.map((it) => it.content.length));
      expect(ratio).toBeGreaterThanOrEqual(TOLERANCE.lengthRatio[0]);
      expect(ratio).toBeLessThanOrEqual(TOLERANCE.lengthRatio[1]);
    }, 240_000);
  }

  it('the tolerance catches removable work written on its own tools (the check can fail)', () => {
    const { episode, units } = opened(GENERIC_WORK);
    expect(
      tvd(
        episode.map((it) => it.tool?.name ?? '-'),
        episode.map(() => 'filler_tool'),
      ),
    ).toBeGreaterThan(distance(units.episode));
  }, 240_000);
});

describe('roles decide the oracle', () => {
  it('every decoy item is removable at every prune point where it is in context', () => {
    let seen = 0;
    const kept: string[] = [];
    for (const c of corpus()) {
      const points = c.fixture['prunePoints'] as { turn: number }[];
      const turn = new Map((c.fixture['items'] as Item[]).map((it) => [it.id, it.turn]));
      for (const e of (c.oracle.episodes ?? []).filter((x) => x.role === 'decoy')) {
        points.forEach((p, k) => {
          const removable = new Set(c.oracle.points[k]!.removable);
          for (const id of e.items.filter((x) => turn.get(x)! <= p.turn)) {
            if (!removable.has(id)) kept.push(`${c.id} p${k + 1} ${id}`);
            seen += 1;
          }
        });
      }
    }
    // One assertion over every decoy item in context, listing those not removable.
    expect(kept).toEqual([]);
    expect(seen).toBeGreaterThan(100);
  }, 240_000);

  it('live episodes keep something at their target point (every family but the recoverable large read)', () => {
    const kept = new Map<string, number>();
    for (const c of corpus()) {
      const points = c.fixture['prunePoints'] as { id: string; turn: number }[];
      for (const e of c.placements.filter((x) => x.role === 'episode')) {
        const k = points.findIndex((p) => p.turn === e.point);
        const removable = new Set(c.oracle.points[k]!.removable);
        if (
          e.items.some(
            (id) => (c.fixture['items'] as Item[]).find((it) => it.id === id)!.turn <= e.point && !removable.has(id),
          )
        )
          kept.set(e.family, (kept.get(e.family) ?? 0) + 1);
      }
    }
    for (const f of FAMILY_NAMES)
      if (f !== 'large-reconstructible-read') expect(kept.get(f) ?? 0, f).toBeGreaterThan(0);
  }, 240_000);

  it('every item but the task statement belongs to exactly one episode, decoy or generic step', () => {
    for (const c of corpus().slice(0, 20)) {
      const items = c.fixture['items'] as Item[];
      const owner = new Map<string, number>();
      for (const e of c.oracle.episodes ?? []) for (const id of e.items) owner.set(id, (owner.get(id) ?? 0) + 1);
      expect(items.filter((it) => !owner.has(it.id)).map((it) => it.turn)).toEqual([0]);
      expect([...owner.values()].every((n) => n === 1)).toBe(true);
      expect(owner.size).toBe(items.length - 1);
    }
  }, 240_000);
});
