// What the leak audit and the feature-reading controls (src/policy/controls/) read of an item: only what its view
// at the prune point shows, each feature declared once with whether a policy may legitimately rely on it and why.
// A feature is `legitimate` when a runtime records it as a fact about the work (status, side-effect class, flags,
// kind, origin, call/result role) and a rule may act on it; `illegitimate` when it is a handle or a surface whose
// link to the label could only come from how the corpus was built (ids, tool names, phrasing, length, where and
// when an item sits): a generator that does not leak draws those alike for items that will be needed and for items
// that will not.
import { frozenMemo } from '../../fixture/memo.js';
import { toolDeclaration, type PolicyView, type ViewItem } from '../../fixture/view.js';

/** A value the audit's classifiers know how to fit: a category, a number (binned on the training half) or a set of tokens. */
export type FeatureValue =
  | { readonly type: 'category'; readonly value: string }
  | { readonly type: 'number'; readonly value: number }
  | { readonly type: 'tokens'; readonly value: readonly string[] };

export interface Feature {
  readonly name: string;
  readonly legitimate: boolean;
  /** Why it is (il)legitimate, as the table and the docs state it. */
  readonly why: string;
  readonly of: (view: PolicyView, index: number) => FeatureValue;
}

/**
 * An id's tokens: the id split at every character that is not a letter or digit and at every run of digits, which
 * are dropped (a counter says which one, not what kind), lowercased, each once: `f2-read1-c` gives f, read, c.
 */
export function idTokens(id: string): string[] {
  return [
    ...new Set(
      id
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((t) => t.length > 0),
    ),
  ].sort();
}

/** Relative position of the item in its context, 0 (oldest) to 1 (newest). */
export function relativePosition(view: PolicyView, index: number): number {
  return view.items.length <= 1 ? 1 : index / (view.items.length - 1);
}

/** Turns between the item and the prune point. */
export function ageInTurns(view: PolicyView, index: number): number {
  return view.prunePoint.turn - view.items[index]!.turn;
}

/** The ten equal-width bins of relative position the position-only control keys on: 0 .. 9. */
export function positionBin(position: number): number {
  return Math.min(9, Math.floor(position * 10));
}

/** Age in turns on a doubling scale (0, 1, 2-3, 4-7, 8-15, ...): the bin's lower bound. */
export function ageBin(age: number): number {
  return age <= 0 ? 0 : 2 ** Math.floor(Math.log2(age));
}

const WORD = /[\p{L}\p{N}_]+/gu;

/** Hashed word unigrams and bigrams of a text (lowercased), each once: 2^20 buckets, FNV-1a, so memory stays bounded. */
export function wordNgrams(text: string): string[] {
  const words = text.toLowerCase().match(WORD) ?? [];
  const out = new Set<string>();
  for (let i = 0; i < words.length; i += 1) {
    out.add(bucket(words[i]!));
    if (i + 1 < words.length) out.add(bucket(`${words[i]!} ${words[i + 1]!}`));
  }
  return [...out];
}

function bucket(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return ((h >>> 0) & 0xfffff).toString(36);
}

/** Share of the subgoal's distinct words the item's content holds (0 when the subgoal has none). */
export function subgoalOverlap(view: PolicyView, index: number): number {
  const goal = new Set(view.prunePoint.subgoal.toLowerCase().match(WORD) ?? []);
  if (goal.size === 0) return 0;
  const words = new Set(view.items[index]!.content.toLowerCase().match(WORD) ?? []);
  return [...goal].filter((w) => words.has(w)).length / goal.size;
}

function roleOf(item: ViewItem): string {
  return item.kind === 'tool-call' ? 'call' : item.kind === 'tool-result' ? 'result' : 'other';
}

function statusOf(item: ViewItem): string {
  if (!item.status) return '(none)';
  return item.status.state === 'ok' ? 'ok' : `error:${item.status.errorType}`;
}

function flagsOf(item: ViewItem): string {
  const { durablePointer, ...booleans } = item.flags;
  const set = Object.entries(booleans)
    .filter(([, on]) => on)
    .map(([name]) => name);
  if (durablePointer) set.push('durablePointer');
  return set.length === 0 ? '(none)' : set.sort().join('+');
}

/** Per context, the items of each turn in order: read once per view, not once per item. */
const turnsIn = frozenMemo((items: readonly ViewItem[]): ReadonlyMap<number, readonly ViewItem[]> => {
  const byTurn = new Map<number, ViewItem[]>();
  for (const item of items) {
    const turn = byTurn.get(item.turn);
    if (turn) turn.push(item);
    else byTurn.set(item.turn, [item]);
  }
  return byTurn;
});

/** The items that share the item's turn, itself included, in context order. */
export function turnOf(view: PolicyView, index: number): readonly ViewItem[] {
  return turnsIn(view.items).get(view.items[index]!.turn) ?? [];
}

const category = (value: string): FeatureValue => ({ type: 'category', value });
const number = (value: number): FeatureValue => ({ type: 'number', value });
const tokens = (value: readonly string[]): FeatureValue => ({ type: 'tokens', value });

/** Every audited feature, in the table's order: the illegitimate ones first. */
export const FEATURES: readonly Feature[] = [
  {
    name: 'id',
    legitimate: false,
    why: 'a handle the runtime or generator assigns; any tie to the label is naming, not evidence',
    of: (v, i) => tokens(idTokens(v.items[i]!.id)),
  },
  {
    name: 'tool',
    legitimate: false,
    why: "rules read what a tool declares (side-effect class, repetition), not its name; filler must use the episodes' tools",
    of: (v, i) => category(v.items[i]!.tool?.name ?? '(none)'),
  },
  {
    name: 'turn',
    legitimate: false,
    why: 'where the generator opened an episode in the session, not a property of the work',
    of: (v, i) => number(v.items[i]!.turn),
  },
  {
    name: 'position',
    legitimate: false,
    why: 'relative place in the context; a generator that places episodes near the prune point and filler everywhere leaks through it',
    of: (v, i) => number(relativePosition(v, i)),
  },
  {
    name: 'age',
    legitimate: false,
    why: 'turns before the prune point: recency baselines act on it, so the corpus must not reward them by its layout alone',
    of: (v, i) => number(ageInTurns(v, i)),
  },
  {
    name: 'turn-size',
    legitimate: false,
    why: 'how many items share its turn: parallel calls and batching in a runtime, a layout the generator chooses in a corpus',
    of: (v, i) => number(turnOf(v, i).length),
  },
  {
    name: 'turn-kinds',
    legitimate: false,
    why: 'the kinds of the items in its turn, in order: the same layout read as a pattern (one call and its result, or a pile)',
    of: (v, i) =>
      category(
        turnOf(v, i)
          .map((item) => item.kind)
          .join(' '),
      ),
  },
  {
    name: 'turn-place',
    legitimate: false,
    why: 'where it sits among the items of its turn (alone, first, last or between): the order a generator lays a turn out in',
    of: (v, i) => {
      const turn = turnOf(v, i);
      const at = turn.indexOf(v.items[i]!);
      return category(turn.length === 1 ? 'alone' : at === 0 ? 'first' : at === turn.length - 1 ? 'last' : 'between');
    },
  },
  {
    name: 'length',
    legitimate: false,
    why: "token length; filler must be drawn from the episodes' length distribution",
    of: (v, i) => number(v.items[i]!.tokens),
  },
  {
    name: 'ngrams',
    legitimate: false,
    why: 'phrasing (hashed word unigrams and bigrams); filler must be written from the same vocabulary as episodes',
    of: (v, i) => tokens(wordNgrams(v.items[i]!.content)),
  },
  {
    name: 'kind',
    legitimate: true,
    why: "recorded by every runtime; the chapter's rules are defined by kind (constraints, hypotheses, tool results)",
    of: (v, i) => category(v.items[i]!.kind),
  },
  {
    name: 'origin',
    legitimate: true,
    why: "who said it (user, model, environment, system) is recorded and bears on removal (a user's constraint)",
    of: (v, i) => category(v.items[i]!.origin),
  },
  {
    name: 'role',
    legitimate: true,
    why: 'call, result or neither: a runtime records it and residue rules treat calls and results differently',
    of: (v, i) => category(roleOf(v.items[i]!)),
  },
  {
    name: 'status',
    legitimate: true,
    why: "ok or the error type, recorded by the tool; failed work is the chapter's residue case",
    of: (v, i) => category(statusOf(v.items[i]!)),
  },
  {
    name: 'side-effect',
    legitimate: true,
    why: "the tool's declared side-effect class decides whether a re-read can recover the item",
    of: (v, i) => category(toolDeclaration(v, v.items[i]!.tool?.name)?.sideEffect ?? '(none)'),
  },
  {
    name: 'flags',
    legitimate: true,
    why: 'runtime-known flags (secret, transient, sole constraint record, plan reference, pointer) exist to protect items',
    of: (v, i) => category(flagsOf(v.items[i]!)),
  },
  {
    name: 'subgoal',
    legitimate: true,
    why: "word overlap with the stated subgoal, the rung-4 predictor's premise; reported so a reader sees how much the subgoal tells (a generator must not derive it from the hidden next need)",
    of: (v, i) => number(subgoalOverlap(v, i)),
  },
];
