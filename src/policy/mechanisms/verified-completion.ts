// Rung 3, verified closure: the trace of finished work may leave once what it established survives elsewhere. The
// runtime's record says a unit closed and where its consequence was written: an item in context, or a durable
// pointer. The check is that the record still holds every consequence string: the item is in context, or the
// pointer resolves at the prune point to bytes with the recorded hash (a later write to the key breaks it; a write
// after the prune point is not seen). Closure says nothing about reopening, so an item that is also part of open
// work (a result whose call open work lists included), or is itself a consequence record, is not this rule's to remove. A unit that closed unresolved (abandoned,
// blocked) did not finish what it was for: its trace is not completed work, and the rule abstains, saying so.
// Closure rests on what the unit's trace observed passing: a check is verification only while it is the latest word
// on what it checked. A later observation of the same thing (a coverage key it reported, run by the same tool or on
// the same recorded source; without keys to compare, the same call or tool on the same source) that did not pass,
// with no passing one asked for after it, contradicts the closure: the check ran and refused, so the trace is KEEP,
// saying which observation contradicts which. One recorded before the check was asked for is older news. In a
// ladder, a failed run an earlier step cut to its residue is compared by the keys the runtime recorded on it
// (`residueKeysOf`): they are the record of what it observed, as its status is of how it ended, not bulk it held.
import type { WorkUnit } from '../../fixture/schema.js';
import { issuedAt, removedHalvesOf, removedItemsOf, residueKeysOf } from '../../fixture/effect-index.js';
import { itemIndex } from '../../fixture/item-index.js';
import { frozenMemo } from '../../fixture/memo.js';
import { resolveInView, type PolicyView, type ViewItem } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { listIds } from '../eligibility.js';
import { coverageKeys, recordedSource, sameCall } from '../identity.js';
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

/** The coverage keys an observation in `items` was recorded with: its own, or, cut to its residue, the record's. */
type KeysOf = (item: ViewItem) => readonly string[] | undefined;

function recordedKeys(items: readonly ViewItem[]): KeysOf {
  const residue = residueKeysOf(items);
  return (item) => coverageKeys(item) ?? residue.get(item.id);
}

/**
 * Whether `other` observes what `check` observed under `key` (one of the check's coverage keys, or undefined for a
 * check that reports none): the key among the other's, run by the same tool or on the same recorded source. Where
 * keys cannot be compared (either reports none), the same call, or the same tool on the same recorded source:
 * nothing shows that what it observed is not what the check did. Another tool on the source is not enough without
 * keys: a query that failed on a typo says nothing of the migration it reads.
 */
function observesSame(check: ViewItem, other: ViewItem, key: string | undefined, keysOf: KeysOf): boolean {
  const sameTool = check.tool?.name === other.tool?.name;
  const source = recordedSource(check);
  const sameSource = source !== undefined && source === recordedSource(other);
  const keys = keysOf(other);
  if (key !== undefined && keys) return keys.includes(key) && (sameTool || sameSource);
  return sameCall(check, other) || (sameTool && sameSource);
}

/** A run of `failure`'s own call again, reporting at least the keys it reported (or reporting none, having passed). */
function rerunOf(failure: ViewItem, other: ViewItem, keysOf: KeysOf): boolean {
  if (!sameCall(failure, other)) return false;
  const before = keysOf(failure);
  const now = keysOf(other);
  return !before || !now || before.every((key) => now.includes(key));
}

const passed = (item: ViewItem): boolean => item.status?.state === 'ok';

function failure(item: ViewItem): string {
  return item.status?.state === 'error' ? `failed (${item.status.errorType}: ${item.status.message})` : 'did not pass';
}

/** An observation the record holds: where it stood, and when it was asked for. */
interface Observation {
  readonly item: ViewItem;
  readonly at: number;
  readonly asked: number;
}

/**
 * Every observation the record holds, by tool and by recorded source, built once per context. In a ladder that
 * includes what an earlier step removed (a later failure rung 0 took as a copy of a still later run, a settling pass
 * it took as a copy), read where it stood: the rule reads the record, so a removal by an earlier step neither hides a
 * contradiction nor a settlement.
 */
const observations = frozenMemo((items: readonly ViewItem[]) => {
  const { callOf, position } = itemIndex(items);
  const all: Observation[] = items.flatMap((item, at) =>
    item.kind === 'tool-result' && item.tool ? [{ item, at, asked: issuedAt(items, at) }] : [],
  );
  for (const { item, place } of removedItemsOf(items).values()) {
    if (item.kind !== 'tool-result' || !item.tool) continue;
    const call = callOf.get(item.tool.callId);
    const callAt = call ? position.get(call.id) : undefined;
    all.push({ item, at: place, asked: callAt !== undefined && callAt < place ? callAt : place });
  }
  const byTool = new Map<string, Observation[]>();
  const bySource = new Map<string, Observation[]>();
  const add = (map: Map<string, Observation[]>, key: string, o: Observation) => {
    const list = map.get(key);
    if (list) list.push(o);
    else map.set(key, [o]);
  };
  for (const o of all) {
    add(byTool, o.item.tool!.name, o);
    const source = recordedSource(o.item);
    if (source) add(bySource, source, o);
  }
  const byItem = new Map(all.map((o) => [o.item, o]));
  return { byItem, byTool, bySource };
});

/**
 * A later observation that contradicts what `unit`'s trace observed passing, with why, where there is one: for each
 * passing tool result in the trace (listed, or the result of a call listed) and each thing it checked, an observation of the same thing not recorded before
 * the check was asked for, that did not pass, and after which no passing observation of it (or run of the failed call)
 * was asked for.
 */
function contradictionOf(view: PolicyView, unit: WorkUnit): string | undefined {
  const items = view.items;
  const keysOf = recordedKeys(items);
  const { byId, resultOf } = itemIndex(items);
  const gone = removedItemsOf(items);
  const goneResults = removedHalvesOf(items).results;
  const { byItem, byTool, bySource } = observations(items);
  const held = unit.traceItems.flatMap((id) => {
    const item = byId.get(id) ?? gone.get(id)?.item;
    const callId = item?.kind === 'tool-call' ? item.tool?.callId : undefined;
    const answer = callId === undefined ? undefined : (resultOf.get(callId) ?? goneResults.get(callId)?.item);
    return answer ? [item!, answer] : item ? [item] : [];
  });
  for (const check of new Set(held)) {
    // Where the check stood and when it was asked for, in context or removed by an earlier step.
    const observed = byItem.get(check);
    if (!observed || !check.tool || !passed(check)) continue;
    const { asked } = observed;
    // Only an observation by the check's tool or on its recorded source can observe the same thing, and only one
    // asked for after the check, in the record's order.
    const source = recordedSource(check);
    const candidates = [
      ...new Set([...(byTool.get(check.tool.name) ?? []), ...(source ? (bySource.get(source) ?? []) : [])]),
    ]
      .filter((r) => r.item !== check && r.at > asked)
      .sort((x, y) => x.at - y.at);
    for (const key of keysOf(check) ?? [undefined]) {
      // From the latest back: a failure is settled by a pass asked for after it that observes what the check did, or
      // that runs the failed call again reporting at least its keys. The earliest unsettled failure is the one named.
      let latestSamePass = Number.NEGATIVE_INFINITY;
      let unsettled: Observation | undefined;
      for (let i = candidates.length - 1; i >= 0; i--) {
        const later = candidates[i]!;
        const same = observesSame(check, later.item, key, keysOf);
        if (passed(later.item)) {
          if (same) latestSamePass = Math.max(latestSamePass, later.asked);
          continue;
        }
        if (!same || latestSamePass > later.at) continue;
        const rerun = (byTool.get(later.item.tool?.name ?? '') ?? []).some(
          (r) => passed(r.item) && r.asked > later.at && rerunOf(later.item, r.item, keysOf),
        );
        if (!rerun) unsettled = later;
      }
      if (!unsettled) continue;
      const later = unsettled;
      const what =
        key !== undefined && keysOf(later.item)
          ? `coverage key ${JSON.stringify(key)}`
          : sameCall(check, later.item)
            ? 'the same call'
            : `${check.tool?.name ?? 'the same tool'} on ${recordedSource(check)}, with no coverage keys on both to compare`;
      return `${check.id}, the check ${unit.id}'s closure rests on, is contradicted by ${later.item.id}, a later observation of ${what}, which ${failure(later.item)}, with no passing one asked for after it`;
    }
  }
  return undefined;
}

export function verifiedCompletion(): ConfiguredMechanism {
  return {
    rule: VERIFIED_COMPLETION,
    rung: 3,
    version: '2.7.0',
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
      const contradictions = new Map<WorkUnit, string | undefined>();
      const contradiction = (unit: WorkUnit): string | undefined => {
        if (!contradictions.has(unit)) contradictions.set(unit, contradictionOf(view, unit));
        return contradictions.get(unit);
      };
      const { callOf } = itemIndex(view.items);
      const findings: Finding[] = [];
      for (const item of view.items) {
        if (!wanted.has(item.id) || records.has(item.id)) continue;
        const listed = unitsOf.get(item.id) ?? [];
        if (listed.length === 0) continue;
        // A result answers its call, so it is part of whatever work lists the call: an open unit listing the call
        // keeps it, and an unresolved or unverified one holds it back, as the gate reads a reference to a call as
        // reaching its result. The reach runs that way only: a unit listing a result says nothing of its call.
        const call = item.kind === 'tool-result' && item.tool ? callOf.get(item.tool.callId) : undefined;
        const containing = [...new Set([...listed, ...(call ? (unitsOf.get(call.id) ?? []) : [])])];
        if (containing.some((unit) => unit.state === 'open')) continue;
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
        const contradicted = containing.flatMap((unit) => contradiction(unit) ?? []);
        if (contradicted.length > 0) {
          findings.push({
            itemId: item.id,
            outcome: 'keep',
            reason: `closure contradicted: ${contradicted.join('; ')}`,
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
  'rung 3: trace of a closed work unit whose consequence record (an item in context, or a pointer resolving at the prune point with its recorded hash) holds every consequence string, and no later observation of what its trace checked (a coverage key, the call, the source) failed without a later pass; a unit closed unresolved is not closure';

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
