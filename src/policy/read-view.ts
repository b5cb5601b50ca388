// The view a read took of its source (rungs 1 and 2): the tool and its selector. Two reads of one version are
// interchangeable only in the same view; one observation covers another only when its view demonstrably contains
// the other's. An absent selector is, by the schema, a whole untruncated read.
import { canonicalJson } from '../fixture/canonical.js';
import { frozenMemo } from '../fixture/memo.js';
import type { ReadSelector } from '../fixture/schema.js';
import type { ViewItem } from '../fixture/view.js';

/** A selector with the schema's default made explicit: absent is a whole, untruncated read. */
export function selectorOf(item: ViewItem): ReadSelector | string {
  return item.source?.selector ?? { kind: 'whole' };
}

/** The view as a comparable key: tool name and selector (a truncated read is its own view); built once per item. */
export const viewKey: (item: ViewItem) => string = frozenMemo((item: ViewItem) => {
  const selector = selectorOf(item);
  // A line range with no start starts at line 1 (as describeView and the containment check read it): one view.
  const normal =
    typeof selector === 'string'
      ? { label: selector }
      : {
          ...selector,
          ...(selector.kind === 'lines' ? { from: selector.from ?? 1 } : {}),
          truncated: selector.truncated === true,
        };
  return canonicalJson({ tool: item.tool?.name ?? null, selector: normal });
});

/** Whether the read was cut short: it shows an unrecorded part of its scope. */
export function truncatedRead(item: ViewItem): boolean {
  const selector = selectorOf(item);
  return typeof selector !== 'string' && selector.truncated === true;
}

/** The view as prose, for reasons: `read_file lines 10-40 (truncated)`. */
export function describeView(item: ViewItem): string {
  const selector = selectorOf(item);
  const tool = item.tool?.name ?? 'an unnamed tool';
  if (typeof selector === 'string') return `${tool} "${selector}"`;
  const bounds =
    selector.kind === 'lines'
      ? ` ${String(selector.from ?? 1)}-${selector.to === undefined ? 'end' : String(selector.to)}`
      : '';
  const query = selector.query !== undefined ? ` "${selector.query}"` : '';
  return `${tool} ${selector.kind}${bounds}${query}${selector.truncated === true ? ' (truncated)' : ''}`;
}

/**
 * Why a truncated newer observation cannot be shown to contain an older one, or undefined when it was not truncated:
 * it shows only an unrecorded part of its scope, whatever it claims to cover (a selector or coverage keys).
 */
export function truncation(
  newer: ViewItem,
  older: ViewItem,
): { readonly result: 'unavailable'; readonly why: string } | undefined {
  const n = selectorOf(newer);
  if (typeof n === 'string' || n.truncated !== true) return undefined;
  return {
    result: 'unavailable',
    why: `${newer.id} was truncated (${describeView(newer)}), so its scope cannot be shown to contain ${older.id}'s`,
  };
}

export type Containment =
  | { readonly result: 'contains' }
  | { readonly result: 'not'; readonly why: string }
  | { readonly result: 'unavailable'; readonly why: string };

/**
 * Whether `newer`'s view demonstrably contains `older`'s, by selectors alone (coverage keys are checked by the
 * caller). A truncated newer read shows an unrecorded part of its scope, so containment cannot be checked.
 */
export function viewContains(newer: ViewItem, older: ViewItem): Containment {
  const n = selectorOf(newer);
  const o = selectorOf(older);
  const cut = truncation(newer, older);
  if (cut) return cut;
  if (typeof n === 'string' || typeof o === 'string') {
    if (typeof n === 'string' && n === o) return { result: 'contains' };
    if (typeof n !== 'string' && n.kind === 'whole') return { result: 'contains' };
    return {
      result: 'not',
      why: `${describeView(newer)} and ${describeView(older)} are different views (an opaque selector is compared only for equality)`,
    };
  }
  if (n.kind === 'whole') return { result: 'contains' };
  if (n.kind === 'lines' && o.kind === 'lines') {
    const nFrom = n.from ?? 1;
    const oFrom = o.from ?? 1;
    const nTo = n.to ?? Number.POSITIVE_INFINITY;
    const oTo = o.to ?? Number.POSITIVE_INFINITY;
    if (nFrom <= oFrom && nTo >= oTo) return { result: 'contains' };
    return { result: 'not', why: `${describeView(newer)} does not contain ${describeView(older)}` };
  }
  if (n.kind === o.kind && n.query === o.query && n.from === o.from && n.to === o.to) return { result: 'contains' };
  return { result: 'not', why: `${describeView(newer)} does not contain ${describeView(older)}` };
}
