// Representation identity (rung 0) of a whole rendered observation, shared by the rung-0 mechanism and the
// regenerability gate's "an identical copy stays" exception, so both mean the same thing by "the same observation".
import { canonicalJson } from '../fixture/canonical.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import { blocksOf, repetitionOf } from '../fixture/view.js';

/**
 * The identity key of a tool result: the call that produced it (tool and canonical arguments), its status (an
 * error is never a copy of a success) and every content block. Where the tool (or fixture) declares repetition
 * irrelevant, the call drops out of the key, so identical outputs of different calls of that tool are copies;
 * the tool name, status and blocks still must agree. Undefined for anything but a tool result.
 */
export function observationKey(view: PolicyView, item: ViewItem): string | undefined {
  if (item.kind !== 'tool-result' || !item.tool) return undefined;
  const across = repetitionOf(view, item.tool.name) === 'irrelevant';
  return canonicalJson({
    tool: item.tool.name,
    call: across ? null : item.tool.arguments,
    status: item.status ?? null,
    blocks: blocksOf(item),
  });
}

/** Whether two items are the same observation under `observationKey`. */
export function sameObservation(view: PolicyView, a: ViewItem, b: ViewItem): boolean {
  // Equal blocks imply equal joined text, so unequal content settles it before any canonical JSON is built.
  if (a.content !== b.content) return false;
  const key = observationKey(view, a);
  return key !== undefined && key === observationKey(view, b);
}
