// Rung 3, verified closure: the trace of finished work may leave once what it established survives elsewhere. The
// runtime's record says a unit closed and where its consequence was written; the check is that the record is in
// context and still holds every consequence string. Closure says nothing about reopening, so an item that is also
// part of open work, or is itself a consequence record, is not this rule's to remove.
import type { WorkUnit } from '../../fixture/schema.js';
import type { PolicyView } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { listIds } from '../eligibility.js';
import type { Finding } from '../types.js';

export const VERIFIED_COMPLETION = 'verified-completion';

type Closure = { readonly verified: true; readonly record: string } | { readonly verified: false; readonly why: string };

function closureOf(view: PolicyView, unit: WorkUnit): Closure {
  const consequence = unit.consequence;
  if (!consequence) return { verified: false, why: `${unit.id} closed with no recorded consequence` };
  if (!('itemId' in consequence)) return { verified: false, why: `${unit.id}'s consequence sits behind pointer ${consequence.pointer.storeKey}, which this rule cannot yet resolve` };
  const record = view.items.find((item) => item.id === consequence.itemId);
  if (!record) return { verified: false, why: `${unit.id}'s consequence record ${consequence.itemId} is not in context` };
  const missing = consequence.strings.filter((s) => !record.content.includes(s));
  if (missing.length > 0) {
    return { verified: false, why: `${unit.id}'s consequence record ${record.id} lacks ${missing.map((s) => JSON.stringify(s)).join(', ')}` };
  }
  return { verified: true, record: record.id };
}

export function verifiedCompletion(): ConfiguredMechanism {
  return {
    rule: VERIFIED_COMPLETION,
    rung: 3,
    version: '1.0.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const units = view.visible.workUnits;
      const records = new Set(units.flatMap((unit) => (unit.consequence && 'itemId' in unit.consequence ? [unit.consequence.itemId] : [])));
      const findings: Finding[] = [];
      for (const item of view.items) {
        if (!wanted.has(item.id) || records.has(item.id)) continue;
        const containing = units.filter((unit) => unit.traceItems.includes(item.id));
        if (containing.length === 0 || containing.some((unit) => unit.state === 'open')) continue;
        const consulted = containing.map((unit) => unit.id);
        const closures = containing.map((unit) => closureOf(view, unit));
        const unverified = closures.flatMap((c) => (c.verified ? [] : [c.why]));
        if (unverified.length > 0) {
          findings.push({ itemId: item.id, outcome: 'abstain', reason: `closure not verified: ${unverified.join('; ')}`, consulted });
          continue;
        }
        const recorded = closures.flatMap((c) => (c.verified ? [c.record] : []));
        findings.push({
          itemId: item.id,
          outcome: 'eligible',
          reason:
            `trace of closed work unit ${listIds(consulted)}, whose consequence is recorded in ` +
            `${listIds([...new Set(recorded)])}, which holds every consequence string`,
          consulted,
        });
      }
      return findings;
    },
  };
}
