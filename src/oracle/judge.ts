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
  const groupsOf = new Map<string, number[]>();
  point.redundantGroups.forEach((g, i) => g.items.forEach((id) => groupsOf.set(id, [...(groupsOf.get(id) ?? []), i])));
  const spare = point.redundantGroups.map((g) => g.items.length - g.keep);
  const eligibleCount = removable.size + partial.size + mostRemovable(point.redundantGroups);

  return {
    eligibleCount,
    verdict(itemId) {
      if (removable.has(itemId)) return 'removable';
      if (partial.has(itemId)) return 'partial';
      if (groupsOf.has(itemId)) return 'redundant-copy';
      return 'necessary';
    },
    judge(removals) {
      const out = new Map<string, Outcome>();
      const usedFromGroup = new Map<number, number>();
      for (const r of removals) {
        const required = partial.get(r.itemId);
        const groups = groupsOf.get(r.itemId);
        let ok: boolean;
        if (removable.has(r.itemId)) ok = true;
        else if (required) ok = r.residue !== undefined && required.every((f) => r.residue!.includes(f));
        else if (groups) {
          // A copy in several groups is a copy of each group's fact: it may go only while every one of them can spare it.
          ok = groups.every((g) => (usedFromGroup.get(g) ?? 0) < spare[g]!);
          for (const g of groups) usedFromGroup.set(g, (usedFromGroup.get(g) ?? 0) + 1);
        } else ok = false;
        out.set(r.itemId, ok ? 'true-prune' : 'false-prune');
      }
      return out;
    },
  };
}

/**
 * The most group members that can go together with every group keeping its `keep`: each group's spare copies when
 * no group overlaps another; for overlapping groups, the best choice found by search over each connected cluster
 * (clusters are a few items; past a bound the count falls back to the disjoint sum, capped by the cluster's size).
 */
export function mostRemovable(groups: OraclePoint['redundantGroups']): number {
  const clusters = clustersOf(groups);
  return clusters.reduce((sum, c) => sum + clusterBest(c), 0);
}

type Group = OraclePoint['redundantGroups'][number];
const SEARCH_LIMIT = 20;

function clustersOf(groups: readonly Group[]): Group[][] {
  const parent = groups.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const firstGroup = new Map<string, number>();
  groups.forEach((g, i) =>
    g.items.forEach((id) => {
      const j = firstGroup.get(id);
      if (j === undefined) firstGroup.set(id, i);
      else parent[find(i)] = find(j);
    }),
  );
  const byRoot = new Map<number, Group[]>();
  groups.forEach((g, i) => byRoot.set(find(i), [...(byRoot.get(find(i)) ?? []), g]));
  return [...byRoot.values()];
}

function clusterBest(cluster: readonly Group[]): number {
  if (cluster.length === 1) return cluster[0]!.items.length - cluster[0]!.keep;
  const items = [...new Set(cluster.flatMap((g) => g.items))];
  if (items.length > SEARCH_LIMIT)
    return Math.min(
      items.length,
      cluster.reduce((s, g) => s + g.items.length - g.keep, 0),
    );
  const memberOf = items.map((id) => cluster.flatMap((g, i) => (g.items.includes(id) ? [i] : [])));
  const left = cluster.map((g) => g.items.length - g.keep);
  let best = 0;
  const search = (k: number, taken: number): void => {
    if (taken + (items.length - k) <= best) return;
    if (k === items.length) {
      best = taken;
      return;
    }
    const groups = memberOf[k]!;
    if (groups.every((g) => left[g]! > 0)) {
      for (const g of groups) left[g]! -= 1;
      search(k + 1, taken + 1);
      for (const g of groups) left[g]! += 1;
    }
    search(k + 1, taken);
  };
  search(0, 0);
  return best;
}
