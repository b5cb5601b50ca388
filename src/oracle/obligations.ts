// Whether a prune point's obligations, visible and downstream, survive a set of removals: the one obligation judge,
// used by the scoring (what a condition's removals lost) and by fixtures:verify (what removing one item alone would
// lose, to check an oracle's labels against its own obligations). Recovery is tested against the world, never
// assumed.
import type { ObligationOutcome } from '../artifacts/schema.js';
import { deepFreeze } from '../fixture/freeze.js';
import { itemIndex } from '../fixture/item-index.js';
import { frozenMemo } from '../fixture/memo.js';
import { needParts } from '../fixture/needs.js';
import { residueText } from '../fixture/residue.js';
import type { FactNeed, Fixture, Item, NeedPart, Obligation, PrunePoint, ResidueField } from '../fixture/schema.js';
import { counterpart, type PolicyView, type ViewItem, viewSource } from '../fixture/view.js';
import { reread, resolvePointer } from '../fixture/world.js';

/** A removal as the judge sees it: what stays in context in the item's place, and the residue it claims to keep. */
export interface RemovalLeft {
  readonly itemId: string;
  readonly residue?: readonly ResidueField[];
  readonly leftBehind: string;
}

export interface ObligationContext {
  readonly fixture: Fixture;
  readonly point: PrunePoint;
  readonly view: PolicyView;
  readonly removals: readonly RemovalLeft[];
}

type Way = 'pointer' | 're-read';

/** Judges obligations against one context; built once, asked per obligation (verify asks only those an item touches). */
export interface ObligationJudge {
  judge(o: Obligation, visibility: 'visible' | 'downstream'): ObligationOutcome;
}

export function obligationJudge(ctx: ObligationContext): ObligationJudge {
  const removed = new Map(ctx.removals.map((r) => [r.itemId, r]));
  const { byId } = itemIndex(ctx.view.items);
  // What removals of items in context left in their place (the last removal of an id counts, as the map keeps it).
  const left = [...removed.values()].filter((r) => byId.has(r.itemId)).map((r) => r.leftBehind);
  // A string is in context when one item holds it, so it never matches across items: an item that stays, or what a
  // removal left in an item's place. Which items hold it is a question of the context alone, asked once.
  // Plain loops, not callbacks: asked for every string of every obligation of every distinct context.
  const known = holdersIn(ctx.view.items);
  // What was left behind, as one text with a separator a needed string cannot cross unless it holds one itself:
  // one search instead of one per removal, for the strings every holder of which was removed.
  let leftText: string | undefined;
  const inContext = (s: string, holders: readonly ViewItem[]): boolean => {
    for (const i of holders) if (!removed.has(i.id)) return true;
    if (left.length === 0) return false;
    if (s.includes(SEPARATOR)) return left.some((t) => t.includes(s));
    leftText ??= left.join(SEPARATOR);
    return leftText.includes(s);
  };

  const meet = (o: Obligation, part: NeedPart): { missing: string[]; ways: Set<Way> } => {
    const missing: string[] = [];
    const ways = new Set<Way>();
    for (const s of part.strings) {
      const holders = holding(known, ctx.view.items, s);
      if (inContext(s, holders)) continue;
      // Not in context: every holder was removed, so each is a removed item it might be had again from.
      if (!recoverFrom(ctx.fixture, o, (t) => t.includes(s), holders, ways)) missing.push(s);
    }
    // A part that names strings names its items only to say where the strings are: the strings are what is needed.
    if (part.strings.length === 0) {
      for (const id of part.itemIds) {
        const r = removed.get(id);
        const item = byId.get(id);
        if (!r || !item || stillHolds(item, r)) continue;
        if (!recoverFrom(ctx.fixture, o, (t) => t === item.content, [item], ways)) missing.push(`item ${id}`);
      }
    }
    for (const f of part.facts ?? []) {
      const r = removed.get(f.item);
      const item = byId.get(f.item);
      if (!r || !item || stillHolds(item, r) || states(ctx.view, item, r, f)) continue;
      if (!recoverFrom(ctx.fixture, o, (t) => t === item.content, [item], ways)) missing.push(factLabel(f));
    }
    return { missing, ways };
  };

  return {
    judge(o, visibility) {
      const { all, anyOf } = needParts(o.needs);
      const own = meet(o, all);
      const alternatives = anyOf.map((p) => meet(o, p));
      const met = alternatives.filter((a) => a.missing.length === 0);
      const missing = [...own.missing];
      if (alternatives.length > 0 && met.length === 0) {
        missing.push(`any of: ${alternatives.map((a) => a.missing.join(' + ')).join(' | ')}`);
      }
      // The alternative that needed the least recovery is the one that holds: present before re-read before pointer.
      const chosen = [...met].sort((a, b) => rank(a.ways) - rank(b.ways))[0];
      const ways = new Set([...own.ways, ...(chosen?.ways ?? [])]);
      const how =
        missing.length > 0 ? 'lost' : ways.has('pointer') ? 'pointer' : ways.has('re-read') ? 're-read' : 'present';
      return { id: o.id, visibility, preserved: missing.length === 0, how, missing };
    },
  };
}

const SEPARATOR = '\u0000';

/**
 * Per context (a frozen items array), the items whose content holds each needed string: every condition, and every
 * removal verify tries, asks the same context, so each string's holders are searched once (memo.ts: frozen only).
 */
const holdersIn = frozenMemo((_items: readonly ViewItem[]) => new Map<string, readonly ViewItem[]>());

function holding(known: Map<string, readonly ViewItem[]>, items: readonly ViewItem[], s: string): readonly ViewItem[] {
  let holders = known.get(s);
  if (!holders) known.set(s, (holders = holdersOf(items, s)));
  return holders;
}

/**
 * The items whose content holds `s`, in order. A fixture's prune points see the same fixture items again (each view
 * the items up to its turn), so for a view built from a frozen fixture each fixture item is searched for `s` once, by
 * whichever view asks first, and every other view reads the answer by the item's index.
 */
export function holdersOf(items: readonly ViewItem[], s: string): readonly ViewItem[] {
  const source = viewSource(items);
  if (!source) return items.filter((item) => item.content.includes(s));
  const found = foundIn(source.fixture);
  let known = found.get(s);
  if (!known) found.set(s, (known = []));
  const holders: ViewItem[] = [];
  const { at } = source;
  for (let v = 0; v < at.length; v += 1) {
    const i = at[v]!;
    let has = known[i];
    if (has === undefined) known[i] = has = items[v]!.content.includes(s);
    if (has) holders.push(items[v]!);
  }
  return holders;
}

/** Per frozen fixture (its opaque key), for each string searched: by fixture item index, whether it holds it. */
const foundIn = frozenMemo((_fixture: object) => new Map<string, (boolean | undefined)[]>());

/**
 * Every obligation at the prune point, visible first, judged after the removals. Many conditions leave the same
 * context at a prune point (raw and keep-all remove nothing; several ladders remove the same items the same way),
 * and the judge reads of a removal only its id and what it left behind: so per context (a frozen view, memo.ts),
 * each distinct removal set is judged once and its outcomes, frozen, are shared.
 */
export function obligationsAt(ctx: ObligationContext): readonly ObligationOutcome[] {
  const judged = judgedIn(ctx.view);
  judged.fixture ??= ctx.fixture;
  judged.point ??= ctx.point;
  if (judged.fixture !== ctx.fixture || judged.point !== ctx.point) return judgeAll(ctx);
  const key = removalsKey(ctx.removals);
  let outcomes = judged.byRemovals.get(key);
  if (!outcomes) judged.byRemovals.set(key, (outcomes = deepFreeze(judgeAll(ctx))));
  return outcomes;
}

/** The first fixture and prune point asked about a view are the ones it was built for; any other is judged afresh. */
const judgedIn = frozenMemo((_view: PolicyView) => ({
  fixture: undefined as Fixture | undefined,
  point: undefined as PrunePoint | undefined,
  byRemovals: new Map<string, readonly ObligationOutcome[]>(),
}));

function judgeAll(ctx: ObligationContext): ObligationOutcome[] {
  const j = obligationJudge(ctx);
  return [
    ...ctx.point.visible.obligations.map((o) => j.judge(o, 'visible')),
    ...ctx.point.downstream.map((o) => j.judge(o, 'downstream')),
  ];
}

/** All the judge reads of a removal set, in order; each part is length-prefixed so distinct sets never collide. */
function removalsKey(removals: readonly RemovalLeft[]): string {
  let key = '';
  for (const r of removals) key += `${r.itemId.length}:${r.itemId}${r.leftBehind.length}:${r.leftBehind}`;
  return key;
}

function rank(ways: ReadonlySet<Way>): number {
  return ways.has('pointer') ? 2 : ways.has('re-read') ? 1 : 0;
}

export function factLabel(f: FactNeed): string {
  return `fact ${f.fact}${f.value === undefined ? '' : ` ${f.value}`} of item ${f.item}`;
}

/** What it left behind still holds the whole payload (a `payload` residue): the item's bytes never left context. */
function stillHolds(item: Item, r: RemovalLeft): boolean {
  return item.content.length > 0 && r.leftBehind.includes(item.content);
}

/**
 * Whether what a removed item left behind states a fact: a failure by its recorded error type or message, an exit
 * code by a recorded error field holding it (or a message naming it). "Passed" and "no match" are stated only by
 * the payload itself, which `stillHolds` already checks. The lines are the residue's own, so a claim to keep a
 * field counts only when its text is in context.
 */
function states(view: PolicyView, item: ViewItem, r: RemovalLeft, f: FactNeed): boolean {
  const status = item.status ?? counterpart(view.items, item)?.status;
  if (status?.state !== 'error') return false;
  const kept = (field: ResidueField): boolean => {
    const line = residueText(view, item, [field]);
    return line.length > 0 && r.leftBehind.includes(line);
  };
  if (f.fact === 'failed') return kept('errorType') || kept('message');
  if (f.fact !== 'exit-code' || f.value === undefined) return false;
  const value = f.value;
  const byField = Object.entries(status.fields).some(([name, v]) => v === value && kept(`fields.${name}`));
  return byField || (kept('message') && new RegExp(`(^|[^0-9])${escapeRegExp(value)}($|[^0-9])`).test(status.message));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether one of the items can be had again as wanted; the way it was had is added to `ways`. */
function recoverFrom(
  fixture: Fixture,
  o: Obligation,
  wanted: (text: string) => boolean,
  from: readonly ViewItem[],
  ways: Set<Way>,
): boolean {
  for (const item of from) {
    const way = recovery(fixture, o, item, wanted);
    if (way) {
      ways.add(way);
      return true;
    }
  }
  return false;
}

function recovery(fixture: Fixture, o: Obligation, item: Item, wanted: (text: string) => boolean): Way | undefined {
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
