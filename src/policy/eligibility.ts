// Small shared pieces every condition builds its verdicts from, so the wording and the consulted-id lists of the
// default verdicts are the same whichever condition produced them.
import type { PolicyView } from '../fixture/view.js';
import { protectionOf } from './protection.js';
import type { Eligibility, Finding, Mechanism, Rung } from './types.js';

/** The reason the spec fixes for an item no mechanism had a finding about. */
export const NO_FINDING = 'no rule establishes eligibility';

/** The rule recorded when the protection gate keeps an item. */
export const GATE_RULE = 'protection';

/** The rule recorded when nothing found anything (the default KEEP). */
export const NO_RULE = 'none';

/** A mechanism together with the parameter values it was built with, for the condition's published record. */
export type ConfiguredMechanism = Mechanism & {
  readonly parameters: Readonly<Record<string, number | string | boolean>>;
};

/** Ids from several lists, each once, in first-seen order (so records never depend on set iteration). */
export function mergeIds(...lists: readonly (readonly string[] | undefined)[]): string[] {
  const out: string[] = [];
  for (const list of lists) {
    for (const id of list ?? []) if (!out.includes(id)) out.push(id);
  }
  return out;
}

export function keepByDefault(itemId: string, consulted: readonly string[]): Eligibility {
  return keptFor(itemId, NO_FINDING, consulted);
}

/** KEEP for a reason no rule's finding gives (no finding at all, or an earlier removal resting on the item). */
export function keptFor(itemId: string, reason: string, consulted: readonly string[]): Eligibility {
  return { itemId, verdict: 'keep', rule: NO_RULE, rung: null, reason, obligationsConsulted: consulted };
}

export function fromFinding(
  finding: Finding,
  rule: string,
  rung: Rung | null,
  consulted: readonly string[],
  step?: number,
): Eligibility {
  return {
    itemId: finding.itemId,
    verdict: finding.outcome,
    rule,
    rung,
    reason: finding.reason,
    obligationsConsulted: consulted,
    ...(finding.residue ? { residue: finding.residue } : {}),
    ...(finding.replacement !== undefined ? { replacement: finding.replacement } : {}),
    ...(step !== undefined ? { step } : {}),
  };
}

/**
 * An eligible verdict the regenerability gate refused: ABSTAIN, still naming the rule that found the item eligible
 * (so the record says what was refused) and its evidence, with the refusal case first; no residue is cut.
 */
export function refuse(verdict: Eligibility, refusal: string): Eligibility {
  const { residue: _none, replacement: _neither, ...rest } = verdict;
  return { ...rest, verdict: 'abstain', reason: `${refusal} (${rest.rule} found: ${verdict.reason})` };
}

/** Why one step holds back an item it found eligible: another removal of the same step rests on it, or it on one. */
export interface HeldBack {
  readonly by: string;
  /** `rested-on`: the removal of `by` rests on this item staying; `rests-on`: this removal rests on `by`, removed now. */
  readonly how: 'rested-on' | 'rests-on';
}

/**
 * One step's eligible findings that must not all go together: a removal resting on an item (its reliesOn) that the
 * same step also finds eligible would rest on nothing that stays (an older observation superseded by a newer one the
 * newest then supersedes). Walked in view order, the earlier removal stands and what it rests on is held back; a
 * removal resting on one already standing is held back too. Returns the held items; the rest may go (gate permitting).
 */
export function heldBackTogether(
  order: readonly string[],
  findings: ReadonlyMap<string, Finding>,
): Map<string, HeldBack> {
  const held = new Map<string, HeldBack>();
  const standing = new Set<string>();
  const restedOnBy = new Map<string, string>();
  for (const id of order) {
    const finding = findings.get(id);
    if (finding?.outcome !== 'eligible') continue;
    const remover = restedOnBy.get(id);
    if (remover !== undefined) {
      held.set(id, { by: remover, how: 'rested-on' });
      continue;
    }
    const gone = finding.reliesOn?.find((r) => standing.has(r));
    if (gone !== undefined) {
      held.set(id, { by: gone, how: 'rests-on' });
      continue;
    }
    standing.add(id);
    for (const r of finding.reliesOn ?? []) if (!restedOnBy.has(r)) restedOnBy.set(r, id);
  }
  return held;
}

/** The record of an item a step held back (`heldBackTogether`), naming the rule's own finding. */
export function heldBackVerdict(verdict: Eligibility, held: HeldBack): Eligibility {
  const { residue: _none, replacement: _neither, ...rest } = verdict;
  return held.how === 'rested-on'
    ? {
        ...rest,
        verdict: 'keep',
        reason: `kept for a removal at the same step: ${held.by}'s rests on it staying (${rest.rule} found: ${verdict.reason})`,
      }
    : {
        ...rest,
        verdict: 'abstain',
        reason: `rests on ${held.by}, which the same step removes (${rest.rule} found: ${verdict.reason})`,
      };
}

/** Indexes a mechanism's findings by item id; a mechanism reporting one item twice is a programming error. */
export function findingsById(rule: string, findings: readonly Finding[]): Map<string, Finding> {
  const byId = new Map<string, Finding>();
  for (const f of findings) {
    if (byId.has(f.itemId)) throw new Error(`internal: ${rule} reported ${f.itemId} twice`);
    byId.set(f.itemId, f);
  }
  return byId;
}

/** A list of ids as prose: "r1", "r1 and r2", "r1, r2 and r3". */
export function listIds(ids: readonly string[]): string {
  if (ids.length <= 1) return ids.join('');
  return `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

/** Verdicts of a condition that neither stands on a rung nor consults obligations (control and comparators). */
export function comparatorVerdict(rule: string) {
  return (itemId: string, verdict: Eligibility['verdict'], reason: string, replacement?: string): Eligibility => ({
    itemId,
    verdict,
    rule,
    rung: null,
    reason,
    obligationsConsulted: [],
    ...(replacement !== undefined ? { replacement } : {}),
  });
}

/** The gate's split of a view: protected items as KEEP verdicts, the rest as candidates for the rules, in order. */
export function splitByGate(
  view: PolicyView,
  consulted: readonly string[],
): { gated: Map<string, Eligibility>; candidates: string[] } {
  const gated = new Map<string, Eligibility>();
  const candidates: string[] = [];
  for (const item of view.items) {
    const protection = protectionOf(view, item);
    if (protection) {
      gated.set(item.id, {
        itemId: item.id,
        verdict: 'keep',
        rule: GATE_RULE,
        rung: null,
        reason: protection.reason,
        obligationsConsulted: mergeIds(consulted, protection.consulted),
      });
    } else {
      candidates.push(item.id);
    }
  }
  return { gated, candidates };
}
