// Scores applied removals against a prune point's oracle. Only the scoring step imports this; no policy can.
import type { OraclePoint, ResidueField } from '../fixture/schema.js';

export type Verdict = 'removable' | 'partial' | 'redundant-copy' | 'necessary';
export type Outcome = 'true-prune' | 'false-prune';

export interface Removal {
  readonly itemId: string;
  readonly residue?: readonly ResidueField[];
}

export interface OracleJudge {
  verdict(itemId: string): Verdict;
  /** How many removals the oracle allows to be true: removable + partial + each group's spare copies. */
  readonly eligibleCount: number;
  /** Outcome of each applied removal; `removals` must be in trajectory order. */
  judge(removals: readonly Removal[]): Map<string, Outcome>;
}

export function oracleJudge(point: OraclePoint): OracleJudge {
  const removable = new Set(point.removable);
  const partial = new Map(point.partial.map((p) => [p.itemId, p.residue]));
  const groupOf = new Map<string, number>();
  point.redundantGroups.forEach((g, i) => g.items.forEach((id) => groupOf.set(id, i)));
  const eligibleCount = removable.size + partial.size
    + point.redundantGroups.reduce((s, g) => s + g.items.length - g.keep, 0);

  return {
    eligibleCount,
    verdict(itemId) {
      if (removable.has(itemId)) return 'removable';
      if (partial.has(itemId)) return 'partial';
      if (groupOf.has(itemId)) return 'redundant-copy';
      return 'necessary';
    },
    judge(removals) {
      const out = new Map<string, Outcome>();
      const usedFromGroup = new Map<number, number>();
      for (const r of removals) {
        const required = partial.get(r.itemId);
        const group = groupOf.get(r.itemId);
        let ok: boolean;
        if (removable.has(r.itemId)) ok = true;
        else if (required) ok = r.residue !== undefined && required.every((f) => r.residue!.includes(f));
        else if (group !== undefined) {
          const used = usedFromGroup.get(group) ?? 0;
          const g = point.redundantGroups[group]!;
          ok = used < g.items.length - g.keep;
          usedFromGroup.set(group, used + 1);
        } else ok = false;
        out.set(r.itemId, ok ? 'true-prune' : 'false-prune');
      }
      return out;
    },
  };
}
