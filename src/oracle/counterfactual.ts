// The counterfactual rule fixtures:verify holds every oracle to: an item is necessary because removing it, alone,
// with everything else in context, loses a declared obligation (visible or downstream, after the pointers and
// re-reads the obligation allows), or because something declared protects it. The converse holds too: an item the
// oracle lets go must lose nothing when it goes alone. Obligations are judged by the scoring's own judge.
import type { Fixture, Obligation, Oracle, OraclePoint, PrunePoint } from '../fixture/schema.js';
import { namedItems, namedStrings } from '../fixture/needs.js';
import { residueText } from '../fixture/residue.js';
import { buildView, type PolicyView, type ViewItem } from '../fixture/view.js';
import { messages, type LostObligation } from '../messages.js';
import { obligationJudge, type RemovalLeft } from './obligations.js';

/** One contradiction between an oracle point and its obligations, named by prune point, oracle field and item(s). */
export type CounterfactualProblem = { readonly prunePoint: string; readonly where: string; readonly field: string } & (
  | { readonly kind: 'not-necessary'; readonly itemId: string }
  | {
      readonly kind: 'label-loses';
      readonly itemId: string;
      readonly label: 'removable' | 'partial' | 'a redundant copy';
      readonly lost: readonly LostObligation[];
    }
  | { readonly kind: 'group-unneeded'; readonly items: readonly string[] }
);

/** The verify problem line for a contradiction in `file`. */
export function problemText(file: string, p: CounterfactualProblem): string {
  switch (p.kind) {
    case 'not-necessary':
      return messages.PL_ORACLE_NOT_NECESSARY(file, p.where, p.itemId, p.field);
    case 'label-loses':
      return messages.PL_ORACLE_LABEL_LOSES(file, p.where, p.itemId, p.field, p.label, p.lost);
    case 'group-unneeded':
      return messages.PL_ORACLE_GROUP_UNNEEDED(file, p.where, p.field, p.items);
  }
}

/** Every contradiction in a fixture's oracle; empty when each label agrees with the obligations. */
export function counterfactualProblems(fixture: Fixture, oracle: Oracle): CounterfactualProblem[] {
  return oracle.points.flatMap((pt, i) => {
    const point = fixture.prunePoints.find((p) => p.id === pt.prunePoint);
    return point ? pointProblems(fixture, point, pt, `oracle point "${pt.prunePoint}" (points[${i}])`) : [];
  });
}

/** Why something declared, not an obligation, keeps the item: undefined when nothing does. */
export function declaredProtection(view: PolicyView, pt: OraclePoint, item: ViewItem): string | undefined {
  const { pinned, protectedTools, pendingSteps, workUnits } = view.visible;
  if (pinned.includes(item.id)) return 'pinned';
  if (item.tool && protectedTools.includes(item.tool.name)) return `output of protected tool ${item.tool.name}`;
  const step = pendingSteps.find((s) => s.references.includes(item.id));
  if (step) return `referenced by pending step ${step.id}`;
  // An open unit's trace is work in progress; any unit's consequence record is where its result lives. A closed
  // unit's trace is completed work and protects nothing.
  const unit = workUnits.find(
    (w) =>
      (w.state === 'open' && w.traceItems.includes(item.id)) ||
      (w.consequence && 'itemId' in w.consequence && w.consequence.itemId === item.id),
  );
  if (unit) return `named by work unit ${unit.id}`;
  const kept = (pt.keptBecause ?? []).find((k) => k.itemId === item.id);
  return kept ? `kept because ${kept.reason}` : undefined;
}

function pointProblems(fixture: Fixture, point: PrunePoint, pt: OraclePoint, where: string): CounterfactualProblem[] {
  const view = buildView(fixture, point.id, () => 0);
  const obligations: { o: Obligation; visibility: 'visible' | 'downstream' }[] = [
    ...point.visible.obligations.map((o) => ({ o, visibility: 'visible' as const })),
    ...point.downstream.map((o) => ({ o, visibility: 'downstream' as const })),
  ];
  const baseline = obligationJudge({ fixture, point, view, removals: [] });
  const heldBefore = obligations.filter(({ o, visibility }) => baseline.judge(o, visibility).preserved);
  const byId = new Map(view.items.map((i) => [i.id, i]));

  /** The obligations that held with nothing removed and are lost after these removals, each with what went missing. */
  const lostBy = (removals: readonly RemovalLeft[]): LostObligation[] => {
    const gone = removals.map((r) => byId.get(r.itemId)!);
    // Only an obligation that names a removed item, or a string one of them holds, can change.
    const touched = heldBefore.filter(({ o }) => {
      const items = namedItems(o.needs);
      const strings = namedStrings(o.needs);
      return gone.some((g) => items.includes(g.id) || strings.some((s) => g.content.includes(s)));
    });
    if (touched.length === 0) return [];
    const after = obligationJudge({ fixture, point, view, removals });
    return touched.map(({ o, visibility }) => after.judge(o, visibility)).filter((r) => !r.preserved);
  };
  const bare = (itemId: string): RemovalLeft => ({ itemId, leftBehind: '' });

  const problems: CounterfactualProblem[] = [];
  const base = { prunePoint: point.id, where };
  const labelled = new Set<string>();
  const check = (
    itemId: string,
    field: string,
    label: 'removable' | 'partial' | 'a redundant copy',
    removal: RemovalLeft,
  ): void => {
    labelled.add(itemId);
    const lost = lostBy([removal]);
    if (lost.length > 0) problems.push({ ...base, kind: 'label-loses', itemId, field, label, lost });
  };
  pt.removable.forEach((id, j) => check(id, `removable[${j}]`, 'removable', bare(id)));
  pt.partial.forEach((p, j) =>
    check(p.itemId, `partial[${j}]`, 'partial', {
      itemId: p.itemId,
      residue: p.residue,
      leftBehind: residueText(view, byId.get(p.itemId)!, p.residue),
    }),
  );
  pt.redundantGroups.forEach((g, j) => {
    g.items.forEach((id, k) => check(id, `redundantGroups[${j}].items[${k}]`, 'a redundant copy', bare(id)));
    // A group is a fact held several times: losing every copy must lose it, or the copies were removable all along.
    const guarded = g.items.some((id) => declaredProtection(view, pt, byId.get(id)!));
    if (!guarded && lostBy(g.items.map(bare)).length === 0)
      problems.push({ ...base, kind: 'group-unneeded', field: `redundantGroups[${j}]`, items: g.items });
  });
  for (const item of view.items) {
    if (labelled.has(item.id) || declaredProtection(view, pt, item)) continue;
    if (lostBy([bare(item.id)]).length === 0)
      problems.push({ ...base, kind: 'not-necessary', itemId: item.id, field: 'removable' });
  }
  return problems;
}
