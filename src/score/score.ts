// Per-prune-point measures: pruning quality against the oracle, obligation preservation (with recovery tested
// against the world), re-fetch alerts and token accounting. Counts are kept so aggregation can pool them.
import type { Decision, DecisionCounts, ObligationOutcome, PointMeasures, Tokens } from '../artifacts/schema.js';
import { canonicalJsonOf } from '../fixture/canonical.js';
import { itemIndex } from '../fixture/item-index.js';
import { frozenMemo } from '../fixture/memo.js';
import type { Fixture, Item, Obligation, OraclePoint, PrunePoint, ResidueField } from '../fixture/schema.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import { reread, resolvePointer } from '../fixture/world.js';
import { oracleJudge, type Outcome, type Verdict } from '../oracle/judge.js';
import { classify } from '../policy/regenerability.js';
import { ratio, unscored } from './ratio.js';

export interface AppliedRemoval {
  readonly itemId: string;
  readonly residue?: readonly ResidueField[];
  /** What stays in context in the item's place (placeholder, residue, or nothing). */
  readonly leftBehind: string;
  readonly leftBehindTokens: number;
}

export interface PointInput {
  readonly condition: string;
  readonly fixture: Fixture;
  readonly point: PrunePoint;
  /** null for an imported trace: decisions and tokens are measured, oracle measures are unscored. */
  readonly oracle: OraclePoint | null;
  readonly view: PolicyView;
  readonly decisions: readonly { readonly itemId: string; readonly decision: Decision }[];
  readonly removals: readonly AppliedRemoval[];
  readonly overheadTokens: number;
}

export interface PointScore {
  /** Everything but behaviour, which the engine adds from the behaviour layer. */
  readonly measures: Omit<PointMeasures, 'behaviour'>;
  readonly verdicts: ReadonlyMap<string, Verdict | 'unscored'>;
  readonly outcomes: ReadonlyMap<string, Outcome>;
}

export function scorePoint(input: PointInput): PointScore {
  const { view, removals } = input;
  const judge = input.oracle ? oracleJudge(input.oracle) : null;
  const outcomes = judge ? judge.judge(removals) : new Map<string, Outcome>();
  const verdicts = new Map(view.items.map((item): [string, Verdict | 'unscored'] => [item.id, judge ? judge.verdict(item.id) : 'unscored']));
  const truePrunes = [...outcomes.values()].filter((o) => o === 'true-prune').length;
  const applied = removals.length;
  const counts = countDecisions(input.decisions);
  const obligationOutcomes = obligationsAt(input);
  const alerts = refetchAlerts(input);
  return {
    verdicts,
    outcomes,
    measures: {
      fixture: input.fixture.id,
      prunePoint: input.point.id,
      condition: input.condition,
      decisions: counts,
      precision: judge ? ratio(truePrunes, applied) : unscored(applied),
      falsePruneRate: judge ? ratio(applied - truePrunes, applied) : unscored(applied),
      coverage: judge ? ratio(truePrunes, judge.eligibleCount) : unscored(null),
      abstentionRate: ratio(counts.abstain, counts.total),
      obligations: { preserved: obligationOutcomes.filter((o) => o.preserved).length, total: obligationOutcomes.length },
      refetchAlerts: alerts.length,
      tokens: tokensAt(view, removals, input.overheadTokens),
      obligationOutcomes,
      alerts,
    },
  };
}

export function countDecisions(decisions: readonly { readonly decision: Decision }[]): DecisionCounts {
  const n = (d: Decision): number => decisions.filter((x) => x.decision === d).length;
  return { total: decisions.length, keep: n('KEEP'), prune: n('PRUNE'), defer: n('DEFER'), abstain: n('ABSTAIN') };
}

function tokensAt(view: PolicyView, removals: readonly AppliedRemoval[], overhead: number): Tokens {
  const byId = new Map(view.items.map((i) => [i.id, i.tokens]));
  const removed = removals.reduce((s, r) => s + (byId.get(r.itemId) ?? 0), 0);
  const placeholder = removals.reduce((s, r) => s + r.leftBehindTokens, 0);
  return { raw: view.contextTokens, removed, placeholder, overhead, final: view.contextTokens - removed + placeholder };
}

/** Per context, the items whose content holds each needed string: searched once, not once per condition. */
const holdersIn = frozenMemo((_items: readonly ViewItem[]) => new Map<string, readonly ViewItem[]>());

function holding(items: readonly ViewItem[], s: string): readonly ViewItem[] {
  const known = holdersIn(items);
  let holders = known.get(s);
  if (!holders) known.set(s, (holders = items.filter((item) => item.content.includes(s))));
  return holders;
}

function obligationsAt(input: PointInput): ObligationOutcome[] {
  const removedIds = new Set(input.removals.map((r) => r.itemId));
  const { byId } = itemIndex(input.view.items);
  // A string is in the context after the removals when one item holds it (a required string never matches across
  // items): an item that stays, or what a removal left in an item's place.
  const inContext = (s: string): boolean =>
    holding(input.view.items, s).some((i) => !removedIds.has(i.id)) || input.removals.some((r) => r.leftBehind.includes(s));
  const judgeOne = (o: Obligation, visibility: 'visible' | 'downstream'): ObligationOutcome => {
    const missing: string[] = [];
    const ways = new Set<'pointer' | 're-read'>();
    const recover = (wanted: (text: string) => boolean, from: readonly ViewItem[]): boolean => {
      for (const item of from) {
        const way = recovery(input.fixture, o, item, wanted);
        if (way) {
          ways.add(way);
          return true;
        }
      }
      return false;
    };
    for (const s of o.needs.strings) {
      if (inContext(s)) continue;
      if (!recover((t) => t.includes(s), holding(input.view.items, s).filter((i) => removedIds.has(i.id)))) missing.push(s);
    }
    for (const id of o.needs.itemIds) {
      const item = removedIds.has(id) ? byId.get(id) : undefined;
      if (!item || o.needs.strings.length > 0) continue;
      if (!recover((t) => t === item.content, [item])) missing.push(`item ${id}`);
    }
    const how = missing.length > 0 ? 'lost' : ways.has('pointer') ? 'pointer' : ways.has('re-read') ? 're-read' : 'present';
    return { id: o.id, visibility, preserved: missing.length === 0, how, missing };
  };
  return [
    ...input.point.visible.obligations.map((o) => judgeOne(o, 'visible')),
    ...input.point.downstream.map((o) => judgeOne(o, 'downstream')),
  ];
}

function recovery(fixture: Fixture, o: Obligation, item: Item, wanted: (text: string) => boolean): 'pointer' | 're-read' | undefined {
  if (o.pointerSatisfies && item.flags.durablePointer) {
    const r = resolvePointer(fixture.world, item.flags.durablePointer, o.neededAtTurn);
    if (r.resolved && wanted(r.content)) return 'pointer';
  }
  if (o.rereadSatisfies && item.source && item.source.identity !== 'UNKNOWN') {
    const again = reread(fixture.world, item.source.identity, o.neededAtTurn);
    if (again !== undefined && wanted(again)) return 're-read';
  }
  return undefined;
}

/** A removed irreducible item, with no identical copy left, whose tool the trajectory invokes again later with the same arguments. */
function refetchAlerts(input: PointInput): { itemId: string; refetchedBy: string }[] {
  const removed = new Set(input.removals.map((r) => r.itemId));
  const { byId, withContent } = itemIndex(input.view.items);
  const alerts: { itemId: string; refetchedBy: string }[] = [];
  for (const r of input.removals) {
    const item = byId.get(r.itemId);
    if (!item?.tool || classify(input.view, item).class !== 'irreducible') continue;
    // A byte-identical copy still in context means the later call is not re-fetching what the removal lost.
    if (withContent.get(item.content)!.some((i) => !removed.has(i.id))) continue;
    const again = laterCalls(input.fixture.items, input.point.turn).get(invocationKey(item.tool.name, item.tool.arguments));
    if (again !== undefined) alerts.push({ itemId: item.id, refetchedBy: again });
  }
  return alerts;
}

const invocationKey = (tool: string, args: object): string => `${tool}\u0000${canonicalJsonOf(args)}`;

/** Per trajectory and turn, the first item after that turn with each tool and canonical arguments, built once. */
const laterCallsIn = frozenMemo((_items: readonly Item[]) => new Map<number, ReadonlyMap<string, string>>());

function laterCalls(items: readonly Item[], turn: number): ReadonlyMap<string, string> {
  const known = laterCallsIn(items);
  let first = known.get(turn);
  if (!first) {
    const built = new Map<string, string>();
    for (const i of items) {
      if (i.turn <= turn || !i.tool) continue;
      const key = invocationKey(i.tool.name, i.tool.arguments);
      if (!built.has(key)) built.set(key, i.id);
    }
    known.set(turn, (first = built));
  }
  return first;
}
