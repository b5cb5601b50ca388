// What the viewer shows only after the reader asks for it: the hidden oracle's verdict on each item, with the reason
// the fixture's ground truth gives, and the downstream obligations the run was scored against. Read from the oracle
// and the prune point's hidden fields, never from what a condition decided.
import { namedItems, namedStrings } from '../fixture/needs.js';
import type { Item, Obligation, OraclePoint, PrunePoint } from '../fixture/schema.js';
import { oracleJudge, type Verdict } from '../oracle/judge.js';

export interface OracleNote {
  readonly verdict: Verdict;
  /** Why the ground truth says so: the obligations that need the item, the residue it must keep, its copies. */
  readonly reason: string;
}

/** The obligations (by id) that name the item, or a string the item holds. */
function needing(obligations: readonly Obligation[], item: Pick<Item, 'id' | 'content'>): string[] {
  return obligations
    .filter((o) => namedItems(o.needs).includes(item.id) || namedStrings(o.needs).some((s) => item.content.includes(s)))
    .map((o) => o.id);
}

/**
 * Each in-context item's verdict (the judge's own, so the viewer and the score never disagree) and its reason.
 * `items` are the items in context at the point.
 */
export function oracleNotes(
  point: Pick<PrunePoint, 'downstream' | 'visible'>,
  oracle: OraclePoint,
  items: readonly Pick<Item, 'id' | 'content'>[],
): Map<string, OracleNote> {
  const judge = oracleJudge(oracle);
  const partial = new Map(oracle.partial.map((p) => [p.itemId, p.residue]));
  const kept = new Map((oracle.keptBecause ?? []).map((k) => [k.itemId, k.reason]));
  const notes = new Map<string, OracleNote>();
  for (const item of items) {
    const verdict = judge.verdict(item.id);
    notes.set(item.id, { verdict, reason: reasonFor(verdict, item, point, oracle, partial, kept) });
  }
  return notes;
}

function reasonFor(
  verdict: Verdict,
  item: Pick<Item, 'id' | 'content'>,
  point: Pick<PrunePoint, 'downstream' | 'visible'>,
  oracle: OraclePoint,
  partial: ReadonlyMap<string, readonly string[]>,
  kept: ReadonlyMap<string, string>,
): string {
  switch (verdict) {
    case 'removable':
      return 'removing it loses no obligation, visible or downstream';
    case 'partial':
      return `its bulk may go if the residue keeps ${(partial.get(item.id) ?? []).join(', ')}`;
    case 'redundant-copy': {
      const groups = oracle.redundantGroups.filter((g) => g.items.includes(item.id));
      return groups
        .map((g) => `one of the interchangeable copies ${g.items.join(', ')}, of which ${g.keep} must stay`)
        .join('; ');
    }
    case 'necessary': {
      const downstream = needing(point.downstream, item);
      const visible = needing(point.visible.obligations, item);
      const parts = [
        downstream.length ? `needed by downstream obligation ${downstream.join(', ')}` : '',
        visible.length ? `needed by visible obligation ${visible.join(', ')}` : '',
        kept.has(item.id) ? `kept because ${kept.get(item.id)}` : '',
      ].filter(Boolean);
      return parts.length
        ? parts.join('; ')
        : 'not listed removable, partial or as a spare copy: the oracle keeps it (see the point rationale)';
    }
  }
}
