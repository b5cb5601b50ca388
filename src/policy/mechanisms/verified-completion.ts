// Rung 3, verified closure: the trace of finished work may leave once what it established survives elsewhere. The
// runtime's record says a unit closed and where its consequence was written: an item in context, or a durable
// pointer. The check is that the record still holds every consequence string: the item is in context, or the
// pointer resolves at the prune point to bytes with the recorded hash (a later write to the key breaks it; a write
// after the prune point is not seen). Closure says nothing about reopening, so an item that is also part of open
// work, or is itself a consequence record, is not this rule's to remove. A unit that closed unresolved (abandoned,
// blocked) did not finish what it was for: its trace is not completed work, and the rule abstains, saying so.
import type { WorkUnit } from '../../fixture/schema.js';
import { itemIndex } from '../../fixture/item-index.js';
import { resolveInView, type PolicyView } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { listIds } from '../eligibility.js';
import type { Finding } from '../types.js';
import { defineCondition } from '../definition.js';
import { gatedVersion, single } from '../single.js';

export const VERIFIED_COMPLETION = 'verified-completion';

type Closure =
  | { readonly verified: true; readonly record: string }
  | { readonly verified: false; readonly why: string };

function closureOf(view: PolicyView, unit: WorkUnit): Closure {
  const consequence = unit.consequence;
  if (!consequence) return { verified: false, why: `${unit.id} closed with no recorded consequence` };
  if (!('itemId' in consequence)) {
    const resolved = resolveInView(view, consequence.pointer);
    if (!resolved.resolved)
      return { verified: false, why: `${unit.id}'s consequence pointer fails at the prune point: ${resolved.why}` };
    const absent = consequence.strings.filter((s) => !resolved.content.includes(s));
    if (absent.length > 0) {
      return {
        verified: false,
        why: `${unit.id}'s consequence at ${consequence.pointer.storeKey} lacks ${absent.map((s) => JSON.stringify(s)).join(', ')}`,
      };
    }
    return { verified: true, record: `${consequence.pointer.storeKey} (hash as recorded)` };
  }
  const record = itemIndex(view.items).byId.get(consequence.itemId);
  if (!record)
    return { verified: false, why: `${unit.id}'s consequence record ${consequence.itemId} is not in context` };
  const missing = consequence.strings.filter((s) => !record.content.includes(s));
  if (missing.length > 0) {
    return {
      verified: false,
      why: `${unit.id}'s consequence record ${record.id} lacks ${missing.map((s) => JSON.stringify(s)).join(', ')}`,
    };
  }
  return { verified: true, record: record.id };
}

export function verifiedCompletion(): ConfiguredMechanism {
  return {
    rule: VERIFIED_COMPLETION,
    rung: 3,
    version: '2.6.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const units = view.visible.workUnits;
      const records = new Set(units.flatMap(recordItem));
      // Which units hold each item, and each unit's closure, found once per context rather than once per item.
      const unitsOf = new Map<string, WorkUnit[]>();
      for (const unit of units) {
        for (const id of new Set(unit.traceItems)) {
          const list = unitsOf.get(id);
          if (list) list.push(unit);
          else unitsOf.set(id, [unit]);
        }
      }
      const closures = new Map<WorkUnit, Closure>();
      const closure = (unit: WorkUnit): Closure => {
        let c = closures.get(unit);
        if (!c) closures.set(unit, (c = closureOf(view, unit)));
        return c;
      };
      const findings: Finding[] = [];
      for (const item of view.items) {
        if (!wanted.has(item.id) || records.has(item.id)) continue;
        const containing = unitsOf.get(item.id) ?? [];
        if (containing.length === 0 || containing.some((unit) => unit.state === 'open')) continue;
        const consulted = containing.map((unit) => unit.id);
        const unresolved = containing.filter((unit) => unit.state === 'closed-unresolved').map((unit) => unit.id);
        if (unresolved.length > 0) {
          findings.push({
            itemId: item.id,
            outcome: 'abstain',
            reason: `not completed work: ${listIds(unresolved)} closed unresolved`,
            consulted,
          });
          continue;
        }
        const verdicts = containing.map(closure);
        const unverified = verdicts.flatMap((c) => (c.verified ? [] : [c.why]));
        if (unverified.length > 0) {
          findings.push({
            itemId: item.id,
            outcome: 'abstain',
            reason: `closure not verified: ${unverified.join('; ')}`,
            consulted,
          });
          continue;
        }
        const recorded = verdicts.flatMap((c) => (c.verified ? [c.record] : []));
        findings.push({
          itemId: item.id,
          outcome: 'eligible',
          reason:
            `trace of closed work unit ${listIds(consulted)}, whose consequence is recorded in ` +
            `${listIds([...new Set(recorded)])}, which holds every consequence string`,
          consulted,
          reliesOn: containing.flatMap(recordItem),
        });
      }
      return findings;
    },
  };
}

/** The item in context a unit's consequence is recorded in, if it is an item rather than a pointer. */
function recordItem(unit: WorkUnit): string[] {
  return unit.consequence && 'itemId' in unit.consequence ? [unit.consequence.itemId] : [];
}

const DESCRIPTION =
  'rung 3: trace of a closed work unit whose consequence record (an item in context, or a pointer resolving at the prune point with its recorded hash) holds every consequence string; a unit closed unresolved is not closure';

/** Layer A: the mechanism alone behind the protection and regenerability gates. */
export const definition = defineCondition({
  name: VERIFIED_COMPLETION,
  layer: 'A',
  rung: 3,
  version: gatedVersion(verifiedCompletion().version),
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () => single(verifiedCompletion(), { gate: true, upperRisk: false, description: DESCRIPTION }),
});
