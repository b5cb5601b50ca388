// Rung 2, the residue of failed work: a failed call's bulk (the result's payload, the call's arguments) may go while
// the diagnostic residue the runtime recorded stays, but only once that bulk has been checked against what is
// visible now. Age is no evidence (that is DCP's rule, the dcp-purge-errors comparator); the check is:
// - no visible obligation's needed string occurs in the bulk;
// - no referenced id reaches the bulk. A "referenced id" is every id a pending step references or a visible
//   obligation names (needs.itemIds). It reaches the bulk when it is the item itself, the other half of its
//   call/result pair, or their shared call id (a step that will retry or inspect the failed call needs the pair's
//   bulk, whichever half it names), or when it occurs as a token in the bulk's text.
// The residue is existing structured metadata, never text derived from the payload, so the operation stays pruning
// rather than compression. A message the importer synthesized (e.g. "exit code 1") is not recorded residue: it is
// left out, and with no structured field either there is nothing recorded to keep, so the rule abstains. Bulk the
// check refuses, and a failed call whose effect on a source is recorded as succeeded, are KEEP findings with the
// reason: in a ladder such a KEEP binds every later step, so no later rule removes the item whole. A failed call whose
// effect has no recorded outcome is an abstention that binds the same way (`binds`): whether its bulk is the record of
// a change could not be checked, and no later rule checks it. In a ladder, a call and its result pair as the runtime
// recorded them: where an earlier step removed one half (rung 0, a copy), the other is read with the half that left
// (`removedItemsOf`), so the rule decides each half still in context as it would alone.
import { removedHalvesOf } from '../../fixture/effect-index.js';
import { namedItems, namedStrings } from '../../fixture/needs.js';
import type { ResidueField, Status } from '../../fixture/schema.js';
import { counterpart, effectsOf, type PolicyView, type ViewItem } from '../../fixture/view.js';
import { heldTexts } from '../held-text.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { listIds } from '../eligibility.js';
import type { Finding } from '../types.js';
import { defineCondition } from '../definition.js';
import { gatedVersion, single } from '../single.js';

export const ERRORED_INPUT_RESIDUE = 'errored-input-residue';

type ErrorStatus = Extract<Status, { state: 'error' }>;

/**
 * What survives of an errored result: its tool, error type, the tool's own message and every structured field it
 * reported. A synthesized message is not the tool's, so it is not kept.
 */
export function resultResidue(status: ErrorStatus): ResidueField[] {
  const fields = Object.keys(status.fields)
    .sort()
    .map((name): ResidueField => `fields.${name}`);
  return ['tool', 'errorType', ...(status.synthesized ? [] : ['message' as const]), ...fields];
}

/**
 * An id occurs where it is not part of a longer word: only a letter, digit or underscore beside it continues it.
 * Punctuation ends it, so an id closing a sentence ("rel-204.") or opening a log line ("rel-204: ...") is named; an
 * id that punctuation continues ("rel-204.1") counts too, which can only keep bulk, never remove it.
 */
function mentions(text: string, id: string): boolean {
  const idChar = /\w/;
  for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
    const before = at > 0 ? text[at - 1]! : '';
    const after = text[at + id.length] ?? '';
    if (!idChar.test(before) && !idChar.test(after)) return true;
  }
  return false;
}

/** Why the visible state still needs this item's bulk, with what it consulted; undefined when nothing does. */
export function bulkNeeded(
  view: PolicyView,
  item: ViewItem,
  pair: ViewItem | undefined,
): { why: string; consulted: string[] } | undefined {
  // The bulk a residue removal takes: all the item shows (a result's payload, a call's arguments as well).
  const bulk = heldTexts(item);
  const { obligations, pendingSteps } = view.visible;
  const reasons: string[] = [];
  const consulted: string[] = [];
  for (const o of obligations) {
    const held = namedStrings(o.needs).filter((s) => bulk.some((t) => t.includes(s)));
    if (held.length > 0) {
      reasons.push(
        `its bulk holds ${held.map((s) => JSON.stringify(s)).join(', ')}, which visible obligation ${o.id} needs`,
      );
      consulted.push(o.id);
    }
  }
  const own = new Set([item.id, ...(pair ? [pair.id] : []), ...(item.tool ? [item.tool.callId] : [])]);
  const referencing = [
    ...pendingSteps.map((s) => ({ id: s.id, what: 'pending step', refs: s.references })),
    ...obligations.map((o) => ({ id: o.id, what: 'visible obligation', refs: namedItems(o.needs) })),
  ];
  for (const r of referencing) {
    const hit = r.refs.filter((ref) => own.has(ref) || bulk.some((t) => mentions(t, ref)));
    if (hit.length > 0) {
      reasons.push(
        `${r.what} ${r.id} references ${listIds(hit)}, ${hit.every((h) => own.has(h)) ? 'part of this failed call' : 'named in its bulk'}`,
      );
      if (!consulted.includes(r.id)) consulted.push(r.id);
    }
  }
  return reasons.length > 0 ? { why: reasons.join('; '), consulted } : undefined;
}

export function erroredInputResidue(): ConfiguredMechanism {
  return {
    rule: ERRORED_INPUT_RESIDUE,
    rung: 2,
    version: '2.7.0',
    parameters: {},
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const findings: Finding[] = [];
      const gone = removedHalvesOf(view.items);
      for (const item of view.items) {
        if (!wanted.has(item.id) || !item.tool) continue;
        // The pairing the runtime recorded: where an earlier step removed one half, the other is read with it.
        const pair =
          counterpart(view.items, item) ??
          (item.kind === 'tool-call' ? gone.results : gone.calls).get(item.tool.callId)?.item;
        const result = item.kind === 'tool-result' ? item : item.kind === 'tool-call' ? pair : undefined;
        const status = result?.status;
        if (!result || status?.state !== 'error') continue;
        const failure = status.synthesized
          ? `${status.errorType}, message synthesized by the importer`
          : `${status.errorType}: ${status.message}`;
        const subject =
          item.kind === 'tool-result'
            ? `${item.tool.name} result errored (${failure})`
            : `its result ${result.id} errored (${failure})`;
        // The call and its result keep the same residue: the call's error fields are read from its recorded
        // result, so either item alone still names the tool and the failure once its bulk has gone.
        const residue = resultResidue(status);
        if (status.synthesized && Object.keys(status.fields).length === 0) {
          findings.push({
            itemId: item.id,
            outcome: 'abstain',
            reason: `${subject}; the message is not the tool's and no structured field was recorded, so no recorded residue would stay`,
          });
          continue;
        }
        // A call whose effect on a source is recorded as done did not fail as a whole: its arguments (and what its
        // error output says of the part that ran) are the record of what changed, not residue of failed work. An
        // effect with no recorded outcome cannot be checked either way.
        const call = item.kind === 'tool-call' ? item : pair;
        const effects = call ? effectsOf(view.items, call) : [];
        const done = effects.filter((e) => e.outcome === 'succeeded').map((e) => e.source);
        if (done.length > 0) {
          findings.push({
            itemId: item.id,
            outcome: 'keep',
            reason: `${subject}; its call's effect on ${listIds(done)} is recorded as succeeded, so it did not fail as a whole: its bulk is the record of what changed, not residue of failed work`,
          });
          continue;
        }
        const unknown = effects.filter((e) => e.outcome === 'unknown').map((e) => e.source);
        if (unknown.length > 0) {
          // Had the effect been recorded as succeeded, this would be a KEEP that binds a ladder's later steps; no later
          // rule asks whether the bulk records a change, so this abstention binds them too.
          findings.push({
            itemId: item.id,
            outcome: 'abstain',
            reason: `${subject}; its call's effect on ${listIds(unknown)} has no recorded outcome, so whether the failure left it unchanged cannot be checked`,
            binds: true,
          });
          continue;
        }
        // Bulk the visible state still needs is kept: the check ran and refused, which is KEEP, not ABSTAIN (and in a
        // ladder binds every later step, so no later rule takes the bulk whole).
        const needed = bulkNeeded(view, item, pair);
        if (needed) {
          findings.push({
            itemId: item.id,
            outcome: 'keep',
            reason: `${subject}; its bulk is kept: ${needed.why}`,
            consulted: needed.consulted,
          });
          continue;
        }
        const consulted = [...view.visible.obligations.map((o) => o.id), ...view.visible.pendingSteps.map((s) => s.id)];
        const bulk = item.kind === 'tool-result' ? 'the payload goes' : 'the arguments go';
        findings.push({
          itemId: item.id,
          outcome: 'eligible',
          reason: `${subject}; no visible obligation string or referenced id is in its bulk: ${bulk}, ${residue.join(', ')} stay`,
          residue,
          consulted,
        });
      }
      return findings;
    },
  };
}

const DESCRIPTION =
  "rung 2: a failed call loses its bulk (payload, arguments) when no visible obligation string or referenced id is in it; tool, error type, the tool's own message and fields stay; abstains when nothing but a synthesized message was recorded";

/** Layer A: the mechanism alone behind the protection and regenerability gates. */
export const definition = defineCondition({
  name: ERRORED_INPUT_RESIDUE,
  layer: 'A',
  rung: 2,
  version: gatedVersion(erroredInputResidue().version),
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () => single(erroredInputResidue(), { gate: true, upperRisk: false, description: DESCRIPTION }),
});
