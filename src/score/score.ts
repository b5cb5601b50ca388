// Per-prune-point measures: pruning quality against the oracle, obligation preservation (judged in
// ../oracle/obligations.ts, recovery tested against the world), re-fetch alerts and token accounting. Counts are
// kept so aggregation can pool them.
import type { Decision, DecisionCounts, FamilyCounts, Harm, PointMeasures, Tokens } from '../artifacts/schema.js';
import { byCodeUnit, canonicalJsonOf } from '../fixture/canonical.js';
import { deepFreeze } from '../fixture/freeze.js';
import { itemIndex } from '../fixture/item-index.js';
import { frozenMemo } from '../fixture/memo.js';
import type { Fixture, Item, Oracle, OraclePoint, PrunePoint, ResidueField } from '../fixture/schema.js';
import { residueText } from '../fixture/residue.js';
import type { PolicyView } from '../fixture/view.js';
import { oracleJudge, type Outcome, type Verdict } from '../oracle/judge.js';
import { obligationsAt } from '../oracle/obligations.js';
import { classify } from '../policy/regenerability.js';
import { copiesKey, groupIdentities } from './groups.js';
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
  /** The oracle's episodes (which family each item belongs to), when it declares them; hidden from policies. */
  readonly episodes?: Oracle['episodes'];
  /**
   * The fixture's whole oracle, `oracle` among its points: a redundant group whose copies change between prune points
   * is then one group (groupIdentities). Without it each group is keyed by its copies at this point alone.
   */
  readonly fixtureOracle?: Oracle | null;
}

export interface PointScore {
  /** Everything but behaviour, which the engine adds from the behaviour layer. */
  readonly measures: Omit<PointMeasures, 'behaviour'>;
  /** The oracle's verdict on an item of the view; asked only for the points whose decision records are written. */
  readonly verdict: (itemId: string) => Verdict | 'unscored';
  readonly outcomes: ReadonlyMap<string, Outcome>;
}

/**
 * A removal as the judge reads it: the residue fields whose text stays in context in the item's place, not the ones
 * the condition claimed. A replacement the condition wrote (a comparator's own text) is what stays, whatever residue
 * it names; a field counts only where its line is in what stays, as a fact need reads it.
 */
function residueStaying(view: PolicyView, r: AppliedRemoval): AppliedRemoval {
  if (!r.residue) return r;
  const item = itemIndex(view.items).byId.get(r.itemId);
  if (!item) return r;
  const residue = r.residue.filter((field) => {
    const line = residueText(view, item, [field]);
    return line.length > 0 && r.leftBehind.includes(line);
  });
  return { ...r, residue };
}

export function scorePoint(input: PointInput): PointScore {
  const { view, removals } = input;
  const judge = input.oracle ? oracleJudge(input.oracle) : null;
  const outcomes = judge ? judge.judge(removals.map((r) => residueStaying(view, r))) : new Map<string, Outcome>();
  const truePrunes = [...outcomes.values()].filter((o) => o === 'true-prune').length;
  const applied = removals.length;
  const counts = countDecisions(input.decisions);
  const obligationOutcomes = obligationsAt(input);
  const alerts = refetchAlerts(input);
  const family = familyOf(input.fixture, input.episodes);
  const groupKeys =
    input.oracle && input.fixtureOracle
      ? groupIdentities(input.fixture, input.fixtureOracle).get(input.oracle.prunePoint)
      : undefined;
  const units = input.oracle ? necessaryUnits(input.oracle, view, outcomes, family, groupKeys) : [];
  return {
    verdict: (itemId) => (judge ? judge.verdict(itemId) : 'unscored'),
    outcomes,
    measures: {
      fixture: input.fixture.id,
      prunePoint: input.point.id,
      condition: input.condition,
      decisions: counts,
      precision: judge ? ratio(truePrunes, applied) : unscored(applied),
      falsePruneRate: judge ? ratio(applied - truePrunes, applied) : unscored(applied),
      coverage: judge ? ratio(truePrunes, judge.eligibleCount) : unscored(null),
      harm: judge ? harmOf(units) : null,
      obligationsLost: {
        lost: obligationOutcomes.filter((o) => !o.preserved).length,
        declared: obligationOutcomes.length,
      },
      families: input.oracle ? familyCounts(input.oracle, view, outcomes, units, family, groupKeys) : [],
      abstentionRate: ratio(counts.abstain, counts.total),
      obligations: {
        preserved: obligationOutcomes.filter((o) => o.preserved).length,
        total: obligationOutcomes.length,
      },
      refetchAlerts: alerts.length,
      tokens: tokensAt(view, removals, input.overheadTokens),
      // The judged outcomes are shared by every condition that left the same context (frozen); the list is its own.
      obligationOutcomes: [...obligationOutcomes],
      necessaryUnits: units,
      alerts,
    },
  };
}

export interface NecessaryUnit {
  readonly key: string;
  readonly removed: boolean;
  readonly family: string;
}

/** The family name an item in no episode, or of a fixture that declares no family, is counted under. */
export const NO_FAMILY = '(none)';

/**
 * Which family an item's removal is attributed to: its episode's, through the oracle (an item in no episode, such
 * as the task statement, to none); a fixture whose oracle declares no episodes attributes every item to its first
 * declared family, or to none, since such a fixture (a canonical one) is one scenario.
 */
export function familyOf(fixture: Fixture, episodes: Oracle['episodes']): (itemId: string) => string {
  return episodes ? familiesIn(episodes) : onlyFamilyOf(fixture);
}

/** One lookup per (frozen) fixture, so that what is derived per family lookup can be shared (unitsIn). */
const onlyFamilyOf = frozenMemo((fixture: Fixture): ((itemId: string) => string) => {
  const only = fixture.families[0] ?? NO_FAMILY;
  return () => only;
});

/** Every condition at every prune point asks the same (frozen) episodes: the lookup is built once (memo.ts). */
const familiesIn = frozenMemo((episodes: NonNullable<Oracle['episodes']>): ((itemId: string) => string) => {
  const byItem = new Map(episodes.flatMap((e) => e.items.map((id) => [id, e.family] as const)));
  return (id) => byItem.get(id) ?? NO_FAMILY;
});

type FamilyRow = { -readonly [K in keyof FamilyCounts]: FamilyCounts[K] };

/** Rows by family in the order first asked for, each made at zero when first asked for. */
function familyRows(): { rows: Map<string, FamilyRow>; row: (family: string) => FamilyRow } {
  const rows = new Map<string, FamilyRow>();
  const row = (family: string) => {
    let r = rows.get(family);
    if (!r) {
      r = { family, candidates: 0, eligible: 0, prunes: 0, falsePrunes: 0, necessaryItems: 0, necessaryRemoved: 0 };
      rows.set(family, r);
    }
    return r;
  };
  return { rows, row };
}

function familyCounts(
  oracle: OraclePoint,
  view: PolicyView,
  outcomes: ReadonlyMap<string, Outcome>,
  units: readonly NecessaryUnit[],
  family: (id: string) => string,
  groupKeys: readonly string[] | undefined,
): FamilyCounts[] {
  const { rows, row } = familyRows();
  for (const base of unitsOf(oracle, view, family, groupKeys).rows) rows.set(base.family, { ...base });
  for (const [id, o] of outcomes) {
    const r = row(family(id));
    r.prunes += 1;
    if (o === 'false-prune') r.falsePrunes += 1;
  }
  for (const u of units) {
    const r = row(u.family);
    r.necessaryItems += 1;
    if (u.removed) r.necessaryRemoved += 1;
  }
  return [...rows.values()].sort((a, b) => byCodeUnit(a.family, b.family));
}

/**
 * The necessary units in context at a prune point (see Harm in the artifact schema). A necessary item and a partial
 * item are one unit each, keyed by id; a partial item is harmed when its removal was judged false (its residue did
 * not survive). A redundant group holds min(keep, copies in context) units, keyed by `groupKeys` (the group's
 * identity across the fixture's prune points, groupIdentities) or else by its copies; its k-th unit is harmed when
 * fewer than k of its copies stay, so a copy in two overlapping groups harms only a group it was among the last
 * copies of.
 */
export function necessaryUnits(
  oracle: OraclePoint,
  view: PolicyView,
  outcomes: ReadonlyMap<string, Outcome>,
  family: (id: string) => string = () => NO_FAMILY,
  groupKeys?: readonly string[],
): NecessaryUnit[] {
  const { items, groups } = unitsOf(oracle, view, family, groupKeys);
  const units: NecessaryUnit[] = [];
  for (const u of items) units.push({ key: u.key, removed: outcomes.get(u.key) === 'false-prune', family: u.family });
  for (const g of groups) {
    // Counted from the copies that stay, not from which removals were judged false: a copy shared with an
    // overlapping group is judged false when that other group cannot spare it, and charging it here too would harm
    // this group while another of its copies still holds its fact.
    let staying = 0;
    for (const id of g.inContext) if (!outcomes.has(id)) staying += 1;
    for (let k = 1; k <= g.slots; k += 1) units.push({ key: `${g.key}#${k}`, removed: staying < k, family: g.family });
  }
  return units;
}

/**
 * What the necessary units and family rows at a prune point are before any removal: the same for every condition, so
 * derived once per (frozen) view for its oracle point and family lookup, and only the removals' outcomes applied per
 * condition. The items' unit keys and families, each redundant group's members in context, slots, key and family,
 * and each family's candidate and eligible counts (in the order its rows were first made).
 */
interface Units {
  readonly items: readonly { readonly key: string; readonly family: string }[];
  readonly groups: readonly {
    readonly inContext: readonly string[];
    readonly slots: number;
    readonly key: string;
    readonly family: string;
  }[];
  readonly rows: readonly FamilyCounts[];
}

function unitsOf(
  oracle: OraclePoint,
  view: PolicyView,
  family: (id: string) => string,
  groupKeys: readonly string[] | undefined,
): Units {
  const known = unitsIn(view);
  if (known.units === undefined) Object.assign(known, { oracle, family, groupKeys });
  if (known.oracle !== oracle || known.family !== family || known.groupKeys !== groupKeys || !Object.isFrozen(oracle))
    return deriveUnits(oracle, view, family, groupKeys);
  return (known.units ??= deepFreeze(deriveUnits(oracle, view, family, groupKeys)));
}

/**
 * The first oracle point, family lookup and group keys asked about a view are the engine's (the keys one memoised
 * array per point, groupIdentities); any others are derived afresh.
 */
const unitsIn = frozenMemo((_view: PolicyView) => ({
  oracle: undefined as OraclePoint | undefined,
  family: undefined as ((id: string) => string) | undefined,
  groupKeys: undefined as readonly string[] | undefined,
  units: undefined as Units | undefined,
}));

function deriveUnits(
  oracle: OraclePoint,
  view: PolicyView,
  family: (id: string) => string,
  groupKeys: readonly string[] | undefined,
): Units {
  const judge = oracleJudge(oracle);
  const grouped = new Set(oracle.redundantGroups.flatMap((g) => g.items));
  const { rows, row } = familyRows();
  const items: { key: string; family: string }[] = [];
  for (const item of view.items) {
    const v = judge.verdict(item.id);
    const f = family(item.id);
    const r = row(f);
    r.candidates += 1;
    if (v === 'removable' || v === 'partial') r.eligible += 1;
    if (v === 'necessary' || (v === 'partial' && !grouped.has(item.id))) items.push({ key: item.id, family: f });
  }
  // A group's spare copies are eligible; they count under the family of the group's first member, as its units do.
  for (const g of oracle.redundantGroups) row(family(g.items[0]!)).eligible += g.items.length - g.keep;
  const present = new Set(view.items.map((i) => i.id));
  const groups = oracle.redundantGroups.map((g, i) => {
    const inContext = g.items.filter((id) => present.has(id));
    return {
      inContext,
      slots: Math.min(g.keep, inContext.length),
      key: groupKeys?.[i] ?? copiesKey(g),
      family: family(g.items[0]!),
    };
  });
  return { items, groups, rows: [...rows.values()] };
}

export function harmOf(units: readonly NecessaryUnit[]): Harm {
  return { necessaryItems: units.length, necessaryRemoved: units.filter((u) => u.removed).length };
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
    const again = laterCalls(input.fixture.items, input.point.turn).get(invocationKey(item.tool));
    if (again !== undefined) alerts.push({ itemId: item.id, refetchedBy: again });
  }
  return alerts;
}

/** A call's tool and canonical arguments; every condition's removals ask it of the same (frozen) calls (memo.ts). */
const invocationKey = frozenMemo(
  (tool: NonNullable<Item['tool']>): string => `${tool.name}\u0000${canonicalJsonOf(tool.arguments)}`,
);

/** Per trajectory and turn, the first item after that turn with each tool and canonical arguments, built once. */
const laterCallsIn = frozenMemo((_items: readonly Item[]) => new Map<number, ReadonlyMap<string, string>>());

function laterCalls(items: readonly Item[], turn: number): ReadonlyMap<string, string> {
  const known = laterCallsIn(items);
  let first = known.get(turn);
  if (!first) {
    const built = new Map<string, string>();
    for (const i of items) {
      if (i.turn <= turn || !i.tool) continue;
      const key = invocationKey(i.tool);
      if (!built.has(key)) built.set(key, i.id);
    }
    known.set(turn, (first = built));
  }
  return first;
}

type Once = Pick<PointMeasures, 'harm' | 'obligationsLost' | 'families'>;

/** Sums family rows by family; `necessary` overrides the necessary counts (once per fixture). */
function sumFamilies(
  rows: readonly FamilyCounts[],
  necessary?: ReadonlyMap<string, { items: number; removed: number }>,
): FamilyCounts[] {
  const by = new Map<string, FamilyCounts>();
  for (const r of rows) {
    const a = by.get(r.family);
    by.set(
      r.family,
      a
        ? {
            family: r.family,
            candidates: a.candidates + r.candidates,
            eligible: a.eligible + r.eligible,
            prunes: a.prunes + r.prunes,
            falsePrunes: a.falsePrunes + r.falsePrunes,
            necessaryItems: a.necessaryItems + r.necessaryItems,
            necessaryRemoved: a.necessaryRemoved + r.necessaryRemoved,
          }
        : { ...r },
    );
  }
  return [...by.values()]
    .map((r) => {
      const n = necessary?.get(r.family);
      return necessary ? { ...r, necessaryItems: n?.items ?? 0, necessaryRemoved: n?.removed ?? 0 } : r;
    })
    .sort((a, b) => byCodeUnit(a.family, b.family));
}

/**
 * A fixture's harm and obligations lost, each unit and obligation counted once however many prune points hold it:
 * harmed (lost) when removed (lost) at any of them. Unscored when any point is.
 */
export function oncePerFixture(
  points: readonly Pick<PointMeasures, 'harm' | 'necessaryUnits' | 'obligationOutcomes' | 'families'>[],
): Once {
  const harmed = new Map<string, { removed: boolean; family: string }>();
  for (const p of points) {
    for (const u of p.necessaryUnits)
      harmed.set(u.key, { removed: (harmed.get(u.key)?.removed ?? false) || u.removed, family: u.family });
  }
  const lost = new Map<string, boolean>();
  for (const p of points)
    for (const o of p.obligationOutcomes) lost.set(o.id, (lost.get(o.id) ?? false) || !o.preserved);
  const byFamily = new Map<string, { items: number; removed: number }>();
  for (const u of harmed.values()) {
    const f = byFamily.get(u.family) ?? { items: 0, removed: 0 };
    byFamily.set(u.family, { items: f.items + 1, removed: f.removed + (u.removed ? 1 : 0) });
  }
  return {
    harm: points.some((p) => p.harm === null)
      ? null
      : { necessaryItems: harmed.size, necessaryRemoved: [...harmed.values()].filter((u) => u.removed).length },
    obligationsLost: { lost: [...lost.values()].filter(Boolean).length, declared: lost.size },
    families: sumFamilies(
      points.flatMap((p) => p.families),
      byFamily,
    ),
  };
}

/** Sums fixtures' once-per-fixture counts (fixtures share no unit); unscored when any fixture is. */
export function sumOnce(fixtures: readonly Once[]): Once {
  const sum = (f: (x: Once) => number) => fixtures.reduce((s, x) => s + f(x), 0);
  return {
    harm: fixtures.some((f) => f.harm === null)
      ? null
      : { necessaryItems: sum((f) => f.harm!.necessaryItems), necessaryRemoved: sum((f) => f.harm!.necessaryRemoved) },
    obligationsLost: { lost: sum((f) => f.obligationsLost.lost), declared: sum((f) => f.obligationsLost.declared) },
    families: sumFamilies(fixtures.flatMap((f) => f.families)),
  };
}
