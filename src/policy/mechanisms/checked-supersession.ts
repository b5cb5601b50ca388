// Rung 2, checked subsumption: a newer observation replaces an older one only when the replacement is checked, not
// assumed. The newer one must be a successful observation of the same source by the same tool, its scope must
// demonstrably contain the older one's (coverage keys a superset, or a view that contains the other: an explicit
// line range around it, an untruncated whole read), and the change between them must rest on the agent's own
// recorded transitions, every one of which succeeded for that source (per effect, not per call). Where both record
// the same state of the source (`sameState`: labels that establish one state, as rung 1 reads them), nothing changed
// what the older showed, so the newer supersedes it only where it shows all the older showed (`showsAllOf`): a
// runtime's "File unchanged since last read" stub carrying the state's label, after a write that left the bytes as
// they were, replaces nothing. Transient state and negative results record conditions that may no longer hold: a
// re-observation never supersedes them. Coverage keys demonstrate a scope only where the observation reports one: an
// empty list (a run that failed to start, or collected nothing) reports no coverage, as an absent one does. A
// transition counts as between the two only where the record orders it so (its result recorded before the newer
// observation was asked for, its call issued after the older was recorded): in a batch of calls whose results come
// back afterwards, whether the newer observation saw the state before or after the edit is not recorded, so the
// pair is not checked.
import { type PlacedEffect, transitionsBetween } from '../../fixture/effect-index.js';
import { frozenMemo } from '../../fixture/memo.js';
import type { ViewItem } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { listIds } from '../eligibility.js';
import { showsAllOf } from '../held-text.js';
import { coverageKeys, renderingKey, sameCall } from '../identity.js';
import { describeView, truncation, viewContains } from '../read-view.js';
import { sameState } from '../source-state.js';
import type { Finding } from '../types.js';
import { defineCondition } from '../definition.js';
import { gatedVersion, single } from '../single.js';

export const CHECKED_SUPERSESSION = 'checked-supersession';

type Check = { readonly outcome: 'eligible' | 'abstain'; readonly reason: string } | { readonly outcome: 'none' };

const NONE: Check = { outcome: 'none' };

const sameRendering = (a: ViewItem, b: ViewItem): boolean => renderingKey(a) === renderingKey(b);

/**
 * Scope: coverage keys when both report them (then the call must match, as the keys are its keys); else the views,
 * when either records a selector (an absent one is then a whole, untruncated read, as the schema says) or both read
 * a recorded version of the source with the same call (whole reads of its content). Containment must be
 * demonstrable: a re-observation with neither keys, nor a selector, nor a version records no scope to compare.
 */
function scope(older: ViewItem, newer: ViewItem): Check | { readonly contains: string } {
  const olderKeys = coverageKeys(older);
  const newerKeys = coverageKeys(newer);
  if (olderKeys && newerKeys) {
    if (!sameCall(older, newer)) return NONE;
    // Keys parsed from a truncated observation say what its call asked for, not what it showed.
    const cut = truncation(newer, older);
    if (cut) return { outcome: 'abstain', reason: cut.why };
    const newerCovers = new Set(newerKeys);
    return olderKeys.every((key) => newerCovers.has(key))
      ? { contains: `its coverage keys include all of ${older.id}'s` }
      : NONE;
  }
  const selected = older.source?.selector !== undefined || newer.source?.selector !== undefined;
  const versioned =
    older.source?.version !== 'UNKNOWN' && newer.source?.version !== 'UNKNOWN' && sameCall(older, newer);
  if (!olderKeys && !newerKeys && (selected || versioned)) {
    const contained = viewContains(newer, older);
    if (contained.result === 'contains')
      return { contains: `its view (${describeView(newer)}) contains ${older.id}'s (${describeView(older)})` };
    if (contained.result === 'unavailable') return { outcome: 'abstain', reason: contained.why };
    return NONE;
  }
  if (!sameCall(older, newer)) return NONE;
  const missing = [older, newer]
    .filter((item) => !coverageKeys(item))
    .map((item) => item.id)
    .join(' and ');
  const unstated = [older, newer].every((item) => !coverageKeys(item) && item.source?.selector === undefined);
  return {
    outcome: 'abstain',
    reason: `coverage of ${missing} is unparsed${unstated ? ' (no coverage keys, selector or version recorded)' : ''}, so ${newer.id} cannot be checked to cover ${older.id}`,
  };
}

function check(items: readonly ViewItem[], olderIndex: number, newerIndex: number, identity: string): Check {
  const older = items[olderIndex];
  const newer = items[newerIndex];
  if (!older || !newer) return NONE;
  const covered = scope(older, newer);
  if (!('contains' in covered)) return covered;
  const around = transitionsBetween(items, identity, olderIndex, newerIndex);
  const unordered = around.filter((e) => !e.ordered);
  if (unordered.length > 0) {
    return {
      outcome: 'abstain',
      reason: `the record does not order ${listIds(unordered.map((e) => e.call.id))} on ${identity} between ${older.id} and ${newer.id} (${unordered.map((e) => unorderedBecause(e, older, newer, olderIndex)).join('; ')}), so whether ${newer.id} observed ${identity} after that transition is unknown`,
    };
  }
  const effects = around.map((e) => ({ call: e.call.id, outcome: e.outcome }));
  const unknown = effects.filter((e) => e.outcome === 'unknown').map((e) => e.call);
  if (unknown.length > 0) {
    return {
      outcome: 'abstain',
      reason: `no outcome is recorded for the effect of ${listIds(unknown)} on ${identity} (unknown), so the transition ${newer.id} relies on cannot be checked to have succeeded`,
    };
  }
  const failed = effects.filter((e) => e.outcome === 'failed').map((e) => e.call);
  if (failed.length > 0) {
    return {
      outcome: 'abstain',
      reason: `${listIds(failed)} failed to change ${identity}, so ${newer.id} does not rest on a successful transition from ${older.id}`,
    };
  }
  if (effects.length === 0) {
    // Identical output of the same call with nothing in between is a rung-0/1 question, not one this rule answers.
    if (sameCall(older, newer) && sameRendering(older, newer)) return NONE;
    return {
      outcome: 'abstain',
      reason: `no recorded transition on ${identity} between ${older.id} and ${newer.id} explains a change, so the drift itself may matter`,
    };
  }
  // A newer observation replaces what the older showed because the state changed. Where both record one state of
  // the source, nothing changed what the older showed, so the newer replaces it only where it shows all of it: a
  // "File unchanged since last read" stub, or a partial rendering, carrying the state's label is no replacement.
  const calls = [...new Set(effects.map((e) => e.call))];
  const same = sameState(older, newer);
  if (same && !showsAllOf(newer, older)) {
    return {
      outcome: 'abstain',
      reason: `nothing replaced what ${older.id} shows: ${newer.id} records ${identity} at ${same.says} too, the state ${older.id} recorded, so ${listIds(calls)} between them changed nothing it shows, and what ${newer.id} shows does not hold ${older.id}'s text and blocks whole (a stub, or another rendering of the state)`,
    };
  }
  // Every change along the way must be explained: a re-observation of the same call in between that differs from
  // its predecessor with no successful transition between them is drift the agent did not cause.
  const chain = [
    olderIndex,
    ...observationsOf(items, identity).filter(
      (at) => at > olderIndex && at < newerIndex && sameCall(items[at]!, older),
    ),
    ...(sameCall(newer, older) ? [newerIndex] : []),
  ];
  for (let i = 1; i < chain.length; i += 1) {
    const from = chain[i - 1]!;
    const to = chain[i]!;
    const a = items[from]!;
    const b = items[to]!;
    if (sameRendering(a, b)) continue;
    const explained = transitionsBetween(items, identity, from, to).some((e) => e.ordered && e.outcome === 'succeeded');
    if (!explained)
      return {
        outcome: 'abstain',
        reason: `${b.id} differs from ${a.id} on ${identity} and no recorded transition between them explains the change`,
      };
  }
  // The same state shown whole: the write changed nothing either shows, and the newer one shows all the older did.
  const changed = same
    ? `${listIds(calls)} between them, each effect recorded as succeeded, left ${identity} at ${same.says}, the state ${older.id} recorded, and ${newer.id} shows all ${older.id} shows`
    : `${listIds(calls)} between them changed ${identity}, each effect recorded as succeeded`;
  return {
    outcome: 'eligible',
    reason: `superseded by ${newer.id}: same tool on ${identity}, ${covered.contains}, and ${changed}`,
  };
}

/** Why the record leaves a transition unordered relative to the two observations. */
function unorderedBecause(e: PlacedEffect, older: ViewItem, newer: ViewItem, olderIndex: number): string {
  const missing = e.resultAt === undefined;
  if (e.at < olderIndex)
    return `${e.call.id} was issued before ${older.id} was recorded and ${missing ? 'its result is not in context' : `its result came after ${older.id} was asked for`}`;
  return `${e.call.id}'s result ${missing ? 'is not in context' : `was recorded after ${newer.id} was asked for`}`;
}

/** A successful tool result observing the source: the only kind of item that can be a newer version of it. */
function isObservation(item: ViewItem, identity: string): boolean {
  return item.kind === 'tool-result' && item.status?.state === 'ok' && item.source?.identity === identity;
}

/** Per context, the positions of every observation of each source, in order: found once, not per older item. */
const observationsIn = frozenMemo((items: readonly ViewItem[]): ReadonlyMap<string, readonly number[]> => {
  const out = new Map<string, number[]>();
  items.forEach((item, at) => {
    const identity = item.source?.identity;
    if (identity === undefined || !isObservation(item, identity)) return;
    const list = out.get(identity);
    if (list) list.push(at);
    else out.set(identity, [at]);
  });
  return out;
});

function observationsOf(items: readonly ViewItem[], identity: string): readonly number[] {
  return observationsIn(items).get(identity) ?? [];
}

export function checkedSupersession(): ConfiguredMechanism {
  return {
    rule: CHECKED_SUPERSESSION,
    rung: 2,
    version: '2.10.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const items = view.items;
      const findings: Finding[] = [];
      items.forEach((older, olderIndex) => {
        const identity = older.source?.identity;
        if (!wanted.has(older.id) || older.kind !== 'tool-result' || !older.tool || !identity || identity === 'UNKNOWN')
          return;
        // A record of a condition that may no longer hold (transient state, a negative result) is not an earlier
        // version of anything: a re-observation never makes it redundant.
        if (older.flags.transientState || older.flags.negativeResult) return;
        // A failed observation that reports no coverage (a read that failed) observed no state of the source: it is
        // failed work, whose bulk rung 2's residue rule checks and whose residue it keeps, and superseding it would
        // take the whole item, residue and all. A failed run that reports its coverage keys (tests that failed)
        // observed the state of what it covered, which a newer run covering the same keys does supersede. One that
        // reports an empty list of keys (it failed to start, or collected nothing) covered nothing: failed work too.
        if (older.status?.state !== 'ok' && !coverageKeys(older)) return;
        const newerIndexes = observationsOf(items, identity).filter(
          (index) => index > olderIndex && items[index]!.tool?.name === older.tool?.name,
        );
        // The latest replacement is tried first: it is the most complete account of the source, and the first
        // eligible check wins, otherwise the first abstention (latest first) is reported.
        let abstention: string | undefined;
        for (const newerIndex of [...newerIndexes].reverse()) {
          const result = check(items, olderIndex, newerIndex, identity);
          if (result.outcome === 'eligible') {
            findings.push({
              itemId: older.id,
              outcome: 'eligible',
              reason: result.reason,
              reliesOn: [items[newerIndex]!.id],
            });
            return;
          }
          if (result.outcome === 'abstain' && abstention === undefined) abstention = result.reason;
        }
        if (abstention !== undefined) findings.push({ itemId: older.id, outcome: 'abstain', reason: abstention });
      });
      return findings;
    },
  };
}

const DESCRIPTION =
  'rung 2: an older observation whose scope a newer successful observation demonstrably contains, every recorded transition between them succeeded for that source and is recorded as done before the newer was asked for, and where both record the same state the newer shows all the older showed (a stub carrying the label does not)';

/** Layer A: the mechanism alone behind the protection and regenerability gates. */
export const definition = defineCondition({
  name: CHECKED_SUPERSESSION,
  layer: 'A',
  rung: 2,
  version: gatedVersion(checkedSupersession().version),
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () => single(checkedSupersession(), { gate: true, upperRisk: false, description: DESCRIPTION }),
});
