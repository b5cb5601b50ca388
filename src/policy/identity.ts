// Representation identity (rung 0) of a whole rendered observation, shared by the rung-0 mechanism and the
// regenerability gate's "an identical copy stays" exception, so both mean the same thing by "the same observation":
// the same call of the same recorded source (or of none on either), with the same status and every block.
import { canonicalJson, canonicalJsonOf } from '../fixture/canonical.js';
import { frozenMemo } from '../fixture/memo.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import { blocksOf, repetitionOf } from '../fixture/view.js';

/** The key of a tool result's observation, with or without its call; built once per (frozen) item and mode. */
const keyWith = (across: boolean) =>
  frozenMemo((item: ViewItem): string =>
    canonicalJson({
      tool: item.tool?.name,
      call: across ? null : item.tool?.arguments,
      source: recordedSource(item) ?? null,
      status: item.status ?? null,
      shown: shownOf(item),
    }),
  );
const ofThisCall = keyWith(false);
const ofAnyCall = keyWith(true);

/**
 * The source identity an item records, when it records one (a source whose identity is UNKNOWN records none). Part
 * of rung 0's identity: one call text run against two sources (a relative path read in two working directories) is
 * two observations however equal their bytes, and an item that records a source is never a copy of one that records
 * none, since nothing shows the second read the same source (the safe side: both stay).
 */
export function recordedSource(item: ViewItem): string | undefined {
  const identity = item.source?.identity;
  return identity === undefined || identity === 'UNKNOWN' ? undefined : identity;
}

/**
 * The identity key of a tool result: the call that produced it (tool and canonical arguments), the source identity it
 * records (`recordedSource`: equal only when both record the same one, or neither records one), its status (an error
 * is never a copy of a success), every content block and the text shown. Where the tool (or fixture) declares
 * repetition irrelevant, the call drops out of the key, so identical outputs of different calls of that tool are
 * copies; the tool name, recorded source, status and blocks still must agree. A result the runtime flags as negative
 * keeps its call (`acrossCalls`). Undefined for anything but a tool result.
 */
export function observationKey(view: PolicyView, item: ViewItem): string | undefined {
  if (item.kind !== 'tool-result' || !item.tool) return undefined;
  return acrossCalls(view, item) ? ofAnyCall(item) : ofThisCall(item);
}

/**
 * Whether the item's identity leaves its call out: its tool declares repetition irrelevant, and the runtime does not
 * flag it as a negative result. "No matches found" means nothing without the query it answers, so it is a copy only
 * of a result of the same call, whatever the declaration says of the tool's output (the safe side: a negative result
 * and an equal non-negative one of the same call are not copies under it either).
 */
export function acrossCalls(view: PolicyView, item: ViewItem): boolean {
  return repetitionOf(view, item.tool?.name) === 'irrelevant' && !item.flags.negativeResult;
}

/** Whether two items are the same observation under `observationKey`. */
export function sameObservation(view: PolicyView, a: ViewItem, b: ViewItem): boolean {
  // Equal blocks imply equal joined text, so unequal content settles it before any canonical JSON is built.
  if (a.content !== b.content) return false;
  const key = observationKey(view, a);
  return key !== undefined && key === observationKey(view, b);
}

/** A call's canonical arguments (undefined for an item with no call), rendered once per call. */
export function callKey(item: ViewItem): string | undefined {
  return item.tool ? canonicalJsonOf(item.tool.arguments) : undefined;
}

/** The same tool with the same canonical arguments. */
export function sameCall(a: ViewItem, b: ViewItem): boolean {
  return a.tool?.name === b.tool?.name && callKey(a) === callKey(b);
}

/**
 * The coverage keys an observation reports, where it reports any. An empty list reports none: every set of keys
 * would include it, so it would let any run of the call "cover" a run that observed nothing of what it covers.
 */
export function coverageKeys(item: ViewItem): readonly string[] | undefined {
  return item.covers && item.covers.length > 0 ? item.covers : undefined;
}

/**
 * What the item shows: every content block, and with blocks declared the text too, since the schema does not bind
 * `content` (what a model is shown) to the blocks: two items show the same only when both agree.
 */
function shownOf(item: ViewItem): unknown {
  return item.blocks ? { blocks: item.blocks, content: item.content } : blocksOf(item);
}

/** What the item shows in canonical form, rendered once per item: equal keys, equal renderings. */
export const renderingKey: (item: ViewItem) => string = frozenMemo((item: ViewItem) => canonicalJson(shownOf(item)));
