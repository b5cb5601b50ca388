// The invariants an assembled oracle point must meet before the generator writes it. A family whose claims
// contradict themselves is a generator bug, so the generator stops rather than write a wrong oracle. The central
// rule is counterfactual: an item labelled necessary must be one whose removal alone, with everything else in
// context still present, loses a declared obligation. When another item in context holds the same needed string,
// neither copy is necessary on its own: they form a redundant group, and labelling one of them necessary would
// count a false prune where no obligation is lost.
import type { Obligation } from '../fixture/schema.js';
import type { DraftItem } from './builder.js';
import type { Claims } from './family.js';
import { heldText, holds } from './held.js';

/**
 * Why removing `id` alone loses an obligation, or undefined when it loses none. An obligation that names the item
 * and needs no string needs the item itself; one that needs strings loses one when this item is the only item in
 * context holding it.
 */
export function lossIfRemoved(
  id: string,
  obligations: readonly Obligation[],
  context: readonly DraftItem[],
  held = heldText(context),
): string | undefined {
  const self = context.find((it) => it.id === id);
  for (const o of obligations) {
    if (!o.needs.itemIds.includes(id)) continue;
    if (o.needs.strings.length === 0) return `${o.id} needs the item itself`;
    for (const s of o.needs.strings) {
      if (holds(self, s) && !held.heldByOther(s, id)) return `${o.id} loses "${s}"`;
    }
  }
  return undefined;
}

export interface PointClaims {
  readonly where: string;
  readonly claims: Claims;
  /** Visible and downstream obligations that apply at the point. */
  readonly obligations: readonly Obligation[];
  /** Items in context at the point, in trajectory order. */
  readonly context: readonly DraftItem[];
  readonly necessary: ReadonlySet<string>;
  readonly turnOf: ReadonlyMap<string, number>;
}

export function checkClaims(p: PointClaims): void {
  const { claims: c, context, necessary, turnOf } = p;
  const fail = (problem: string): never => {
    throw new Error(`internal: generator claims at ${p.where}: ${problem}`);
  };
  const inContext = new Set(context.map((it) => it.id));
  const seen = new Map<string, string>();
  const claim = (id: string, as: string) => {
    if (!inContext.has(id)) fail(`${as} item ${id} is not in context`);
    const before = seen.get(id);
    if (before) fail(`item ${id} is both ${before} and ${as}`);
    seen.set(id, as);
  };
  for (const id of necessary) claim(id, 'necessary');
  for (const x of c.partial) claim(x.itemId, 'partial');
  for (const g of c.groups) {
    if (g.items.length < 2) fail('a redundant group of fewer than two copies');
    for (const id of g.items) claim(id, 'a redundant copy');
  }
  const recoverable = new Set(c.recoverable);
  const byId = new Map(context.map((it) => [it.id, it]));
  for (const o of p.obligations) {
    for (const id of o.needs.itemIds) {
      if (!seen.has(id) && !(recoverable.has(id) && (o.pointerSatisfies || o.rereadSatisfies)))
        fail(`obligation ${o.id} needs ${id}, which no claim keeps`);
      if ((turnOf.get(id) ?? Infinity) > o.neededAtTurn) fail(`obligation ${o.id} needs ${id} before it exists`);
    }
    for (const s of o.needs.strings) {
      if (!o.needs.itemIds.some((id) => holds(byId.get(id), s)))
        fail(`obligation ${o.id} needs "${s}", which none of its items holds`);
    }
  }
  const held = heldText(context);
  for (const id of necessary) {
    if (lossIfRemoved(id, p.obligations, context, held)) continue;
    const self = byId.get(id);
    const named = p.obligations.filter((o) => o.needs.itemIds.includes(id));
    const shared = named.flatMap((o) =>
      o.needs.strings
        .filter((s) => holds(self, s))
        .map((s) => ({ s, other: context.find((it) => it.id !== id && holds(it, s)) })),
    );
    const copy = shared.find((x) => x.other);
    fail(
      copy
        ? `necessary item ${id} is not counterfactually necessary: "${copy.s}" is also held by ${copy.other!.id}; the two form a redundant group`
        : `necessary item ${id} is not counterfactually necessary: removing it alone loses no declared obligation`,
    );
  }
}
