// The ladder's first question: is the item required by a declared current obligation? Protection is derived from
// what the view declares (pins, protected tools, visible obligations, pending steps), never from a list of kinds.
import { frozenMemo } from '../fixture/memo.js';
import { namedItems, namedStrings } from '../fixture/needs.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import { holdsText } from './held-text.js';

export interface Protection {
  readonly reason: string;
  readonly consulted: readonly string[];
}

/** Per (frozen) view, each item's protection: every gated condition asks it of the same view. */
const known = frozenMemo((_view: PolicyView) => new Map<ViewItem, Protection | undefined>());

/** Why the visible state protects this item, or undefined when nothing visible does. */
export function protectionOf(view: PolicyView, item: ViewItem): Protection | undefined {
  const cache = known(view);
  if (cache.has(item)) return cache.get(item);
  // Frozen, since every condition gets the same answer.
  const found = protection(view, item);
  if (found) Object.freeze(found.consulted);
  cache.set(item, found && Object.freeze(found));
  return found;
}

function protection(view: PolicyView, item: ViewItem): Protection | undefined {
  const { pinned, protectedTools, obligations, pendingSteps } = view.visible;
  if (pinned.includes(item.id)) return { reason: 'pinned by the runtime', consulted: [] };
  if (item.tool && protectedTools.includes(item.tool.name)) {
    return { reason: `output of protected tool ${item.tool.name}`, consulted: [] };
  }
  // Every item or string an obligation names counts, in any of its alternatives: which one will hold is not known.
  const byId = obligations.filter((o) => namedItems(o.needs).includes(item.id)).map((o) => o.id);
  const byText = obligations
    .filter((o) => !byId.includes(o.id) && namedStrings(o.needs).some((s) => holdsText(item, s)))
    .map((o) => o.id);
  const steps = pendingSteps.filter((s) => s.references.includes(item.id)).map((s) => s.id);
  const consulted = [...byId, ...byText, ...steps];
  if (consulted.length === 0) return undefined;
  const parts = [
    byId.length ? `named by visible obligation ${byId.join(', ')}` : '',
    byText.length ? `holds a string visible obligation ${byText.join(', ')} needs` : '',
    steps.length ? `referenced by pending step ${steps.join(', ')}` : '',
  ].filter(Boolean);
  return { reason: parts.join('; '), consulted };
}

/** Every visible obligation and pending step id: what a protection check consulted. */
export function visibleIds(view: PolicyView): string[] {
  const { obligations, pendingSteps } = view.visible;
  return [...obligations.map((o) => o.id), ...pendingSteps.map((s) => s.id)];
}
