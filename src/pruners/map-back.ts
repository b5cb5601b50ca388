// From what a pruner returned to what it did to each item. Every unit of the output must be one of the input's, in
// the input's order: unchanged (kept), or changed in its own slot into a truncation or a placeholder; an input unit
// with no output unit was removed. Tool calls and results name their slot by their call id even when their content
// changed; text finds its slot by alignment (the fewest changed units; among equals, the later copy kept, as a pruner
// that drops the older of two identical texts would). Anything else (a summary, a merged message, a unit the input
// does not have) is transformation, and text out of order is reordering: both are refused, never guessed at.
import { failure } from '../errors.js';
import { classifyChange } from './changed-text.js';
import { type MessageFormat, type Rendered, ShapeProblem, type Unit } from './types.js';

export type Fate =
  | { readonly kind: 'kept'; readonly message: number }
  | { readonly kind: 'removed' }
  | { readonly kind: 'replaced'; readonly text: string; readonly message: number }
  | { readonly kind: 'truncated'; readonly text: string; readonly kept: number; readonly message: number }
  /** Not in the array the pruner was given (anthropic system text). */
  | { readonly kind: 'beside' };

export interface Mapped {
  readonly fates: ReadonlyMap<string, Fate>;
  /** Per item: the structural damage the pruner's output does around it (a call or result left without its pair). */
  readonly structure: ReadonlyMap<string, readonly string[]>;
}

export interface Where {
  readonly condition: string;
  readonly fixture: string;
  readonly point: string;
}

const INFINITE = Number.POSITIVE_INFINITY;

const sameSlot = (a: Unit, b: Unit): boolean =>
  a.kind === b.kind && a.role === b.role && a.callId === b.callId && (b.toolName ?? a.toolName) === a.toolName;

const identical = (a: Unit, b: Unit): boolean => sameSlot(a, b) && a.text === b.text;

/** Reads the pruner's output and maps it back onto the rendered items; throws a typed refusal when it cannot. */
export function mapBack(rendered: Rendered, output: unknown, format: MessageFormat, where: Where): Mapped {
  let units: Unit[];
  try {
    units = format.unitsOf(output);
  } catch (err) {
    if (!(err instanceof ShapeProblem)) throw err;
    throw failure('PL_PRUNER_SHAPE', where.condition, where.fixture, where.point, format.name, err.index, err.problem);
  }
  const matches = subsequence(rendered.units, units) ?? align(rendered.units, units, where);
  const fates = new Map<string, Fate>(rendered.beside.map((id) => [id, { kind: 'beside' } as const]));
  rendered.units.forEach((_, i) => fates.set(rendered.itemOfUnit[i]!, { kind: 'removed' }));
  matches.forEach((i, j) => {
    const before = rendered.units[i]!;
    const after = units[j]!;
    const id = rendered.itemOfUnit[i]!;
    if (before.text === after.text) fates.set(id, { kind: 'kept', message: after.message });
    else {
      const change = classifyChange(before.text, after.text);
      if (change.kind === 'transformed') throw transformation(where, after, change.why);
      fates.set(
        id,
        change.kind === 'truncated'
          ? { kind: 'truncated', text: after.text, kept: change.kept, message: after.message }
          : { kind: 'replaced', text: after.text, message: after.message },
      );
    }
  });
  return { fates, structure: structureOf(rendered, fates) };
}

/** The input unit each output unit is, when every output unit is an unchanged input unit in order; else null. */
function subsequence(input: readonly Unit[], output: readonly Unit[]): number[] | null {
  const matches = new Array<number>(output.length);
  let i = input.length - 1;
  for (let j = output.length - 1; j >= 0; j -= 1) {
    while (i >= 0 && !identical(input[i]!, output[j]!)) i -= 1;
    if (i < 0) return null;
    matches[j] = i;
    i -= 1;
  }
  return matches;
}

function transformation(where: Where, unit: Unit, why: string) {
  return failure('PL_PRUNER_TRANSFORMATION', where.condition, where.fixture, where.point, unit.message, why);
}

function reordering(where: Where, unit: Unit, why: string) {
  return failure('PL_PRUNER_REORDERED', where.condition, where.fixture, where.point, unit.message, why);
}

const excerpt = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** The input unit of each output unit, allowing changed units; throws when some output unit has no slot. */
function align(input: readonly Unit[], output: readonly Unit[], where: Where): number[] {
  const byCall = new Map<string, number>();
  input.forEach((u, i) => {
    if (u.callId !== undefined) byCall.set(`${u.kind} ${u.callId}`, i);
  });
  const matches = new Array<number>(output.length);
  // Calls and results first: their ids name their slots, and cut the rest into segments aligned one by one.
  const anchors: number[] = [];
  let last = -1;
  const seen = new Set<number>();
  output.forEach((u, j) => {
    if (u.callId === undefined) return;
    const i = byCall.get(`${u.kind} ${u.callId}`);
    if (i === undefined)
      throw transformation(where, u, `holds a ${u.kind} with id ${u.callId}, which the input does not have`);
    if (seen.has(i)) throw transformation(where, u, `holds the ${u.kind} with id ${u.callId} a second time`);
    if (!sameSlot(input[i]!, u))
      throw transformation(where, u, `changes the role or tool name of the ${u.kind} with id ${u.callId}`);
    if (i < last) throw reordering(where, u, `puts the ${u.kind} with id ${u.callId} before units that came before it`);
    seen.add(i);
    last = i;
    matches[j] = i;
    anchors.push(j);
  });
  const bounds = [-1, ...anchors, output.length];
  for (let k = 0; k + 1 < bounds.length; k += 1) {
    const from = bounds[k]!;
    const to = bounds[k + 1]!;
    const inFrom = from < 0 ? 0 : matches[from]! + 1;
    const inTo = to >= output.length ? input.length : matches[to]!;
    const segment: Segment = { input, iFrom: inFrom, iTo: inTo, output, oFrom: from + 1, oTo: to };
    const found = alignSegment(segment);
    if (!found) throw unmatched(segment, where);
    found.forEach((i, n) => {
      matches[from + 1 + n] = i;
    });
  }
  return matches;
}

/** The cost of `output[j]` standing in `input[i]`'s slot: 0 unchanged, 1 changed, infinite when it cannot. */
function slotCost(a: Unit, b: Unit): number {
  if (a.callId !== undefined || !sameSlot(a, b)) return INFINITE;
  if (a.text === b.text) return 0;
  return classifyChange(a.text, b.text).kind === 'transformed' ? INFINITE : 1;
}

/** Output units [oFrom, oTo) that must find their slots among input units [iFrom, iTo). */
interface Segment {
  readonly input: readonly Unit[];
  readonly iFrom: number;
  readonly iTo: number;
  readonly output: readonly Unit[];
  readonly oFrom: number;
  readonly oTo: number;
}

/** Aligns a segment: fewest changed units, later copies preferred; null when some output unit has no slot. */
function alignSegment({ input, iFrom, iTo, output, oFrom, oTo }: Segment): number[] | null {
  const n = iTo - iFrom;
  const m = oTo - oFrom;
  if (m === 0) return [];
  if (m > n) return null;
  // best[i][j]: least cost aligning output units j.. with input units i.. (suffixes).
  const best = Array.from({ length: n + 1 }, () => new Float64Array(m + 1).fill(INFINITE));
  for (let i = 0; i <= n; i += 1) best[i]![m] = 0;
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      const skip = best[i + 1]![j]!;
      const rest = best[i + 1]![j + 1]!;
      let take = INFINITE;
      if (rest < INFINITE) {
        take = slotCost(input[iFrom + i]!, output[oFrom + j]!) + rest;
      }
      best[i]![j] = Math.min(skip, take);
    }
  }
  if (best[0]![0] === INFINITE) return null;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (j < m) {
    // Removing the earlier unit when that costs no more keeps the later copy of identical text.
    if (best[i + 1]![j]! <= best[i]![j]!) i += 1;
    else {
      out.push(iFrom + i);
      i += 1;
      j += 1;
    }
  }
  return out;
}

/** The refusal for a segment that does not align: the first output unit with no slot, told as what it is. */
function unmatched({ input, iFrom, iTo, output, oFrom, oTo }: Segment, where: Where) {
  const segment = input.slice(iFrom, iTo);
  const culprit =
    output.slice(oFrom, oTo).find((u) => !segment.some((a) => slotCost(a, u) < INFINITE)) ?? output[oFrom]!;
  if (input.some((a) => identical(a, culprit)))
    return reordering(where, culprit, `holds ${culprit.role} text ${excerpt(culprit.text)} out of the input's order`);
  const sameSlotText = segment.find((a) => a.callId === undefined && sameSlot(a, culprit) && a.text !== culprit.text);
  const why = sameSlotText
    ? classifyChange(sameSlotText.text, culprit.text)
    : { kind: 'transformed' as const, why: 'holds text that is in no input message' };
  return transformation(
    where,
    culprit,
    `${why.kind === 'transformed' ? why.why : 'cannot be placed'} (${culprit.role} ${excerpt(culprit.text)})`,
  );
}

/** A call kept without its result, or a result kept without its call, when the input had both. */
function structureOf(rendered: Rendered, fates: ReadonlyMap<string, Fate>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const note = (id: string, text: string) => out.set(id, [...(out.get(id) ?? []), text]);
  const present = (id: string) => {
    const kind = fates.get(id)?.kind;
    return kind !== undefined && kind !== 'removed';
  };
  const calls = new Map<string, string>();
  const results = new Map<string, string>();
  rendered.units.forEach((u, i) => {
    if (u.callId === undefined) return;
    (u.kind === 'tool-call' ? calls : results).set(u.callId, rendered.itemOfUnit[i]!);
  });
  for (const [callId, call] of calls) {
    const result = results.get(callId);
    if (result === undefined || present(call) === present(result)) continue;
    if (present(call)) note(call, `the pruner kept call ${callId} (${call}) without its result ${result}`);
    else note(result, `the pruner kept the result of call ${callId} (${result}) without its call ${call}`);
  }
  return out;
}
