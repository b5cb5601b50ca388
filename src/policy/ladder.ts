// Layer B: the conservative ladder applied cumulatively. The gate runs first; then each rule, in order, judges only
// the items no earlier rule removed, against the context as it stands after the earlier removals, so two rules can
// never each remove a copy on the strength of the other. A partial (residue) removal leaves the item in context as
// what it has become, its residue with no coverage of its own, so no later rule can lean on the bulk that went;
// it is not judged again. What the runtime recorded does not change with the context: a later rule still reads a
// removed item's record (`removedItemsOf`, where it stood) and a residue's recorded coverage keys (`residueKeysOf`). The first rule that finds an item eligible removes it and is recorded with its step;
// an abstention does not stop a later rule with a different check. Every step's eligible items pass the one
// regenerability gate first (the predictor's step included), against everything removed so far and at that step.
// An item an earlier removal rests on staying (its finding's reliesOn) leaves the candidates: no later step judges
// it and the predictor is never asked about it; it is KEEP with that reason unless an earlier rule abstained on it.
// Before the predictor, so does an item the gate refuses only because of the earlier removals. A rule's KEEP with a
// stated reason (its check ran and refused removal) binds every later step the same way: the item leaves the
// candidates and is KEEP with that rule's reason, whatever a later rule would have found. An abstention binds nothing,
// unless it says it does (`binds`: the check that could not run asked whether the item must stay, which no later rule
// asks): then it binds the later steps the same way, the item staying ABSTAIN with that rule's reason.
import {
  type RemovedItem,
  removedItemsOf,
  residueKeysOf,
  withRemovedItems,
  withResidueKeys,
} from '../fixture/effect-index.js';
import { itemIndex } from '../fixture/item-index.js';
import { residueText } from '../fixture/residue.js';
import type { Effect, ResidueField } from '../fixture/schema.js';
import { effectsOf, type PolicyView, type ViewItem } from '../fixture/view.js';
import {
  fromFinding,
  findingsById,
  heldBackTogether,
  heldBackVerdict,
  keepByDefault,
  keptFor,
  mergeIds,
  refuse,
  splitByGate,
} from './eligibility.js';
import type { ConfiguredMechanism } from './eligibility.js';
import { visibleIds } from './protection.js';
import { gateSuspects, regenerabilityGate } from './regenerability.js';
import type { Condition, Eligibility, Rung } from './types.js';

/** What the ladder does with the predictor after its evidence rules. */
export type PredictorUse =
  /** ladder-0-3: an item only the predictor would remove is ABSTAIN ("only prediction supports removal"). */
  | { readonly mode: 'abstain'; readonly mechanism: ConfiguredMechanism }
  /** ladder-0-4: the predictor is the last rule and removes (upper-risk). */
  | { readonly mode: 'apply'; readonly mechanism: ConfiguredMechanism };

export interface LadderOptions {
  readonly name: string;
  readonly description: string;
  readonly rules: readonly ConfiguredMechanism[];
  readonly predictor?: PredictorUse;
}

/** Every ladder's version: what a ladder does with its rules is one algorithm, whichever rules it is given. */
export const LADDER_VERSION = '2.14.0';

export const ONLY_PREDICTION = 'only prediction supports removal';

/**
 * The context after some items left it and others were cut to their residue: same header, fewer or smaller items,
 * occupancy recomputed (residue items keep their original token count: the ladder only orders, the engine counts).
 */
export function withoutItems(
  view: PolicyView,
  removed: ReadonlySet<string>,
  reduced: ReadonlyMap<string, readonly ResidueField[]> = new Map(),
): PolicyView {
  if (removed.size === 0 && reduced.size === 0) return view;
  // A bare effect takes its outcome from the call's result (`effectsOf`). Where the result leaves and the call stays,
  // the outcome the runtime recorded is written on the call, so a later rule reads that outcome rather than reading
  // the result's absence as an unknown one (which only the context, not the record, changed).
  const { callOf } = itemIndex(view.items);
  const recorded = new Map<string, readonly Effect[]>();
  for (const item of view.items) {
    if (!removed.has(item.id) || item.kind !== 'tool-result' || !item.tool) continue;
    const call = callOf.get(item.tool.callId);
    if (call && !removed.has(call.id) && call.effects?.some((e) => typeof e === 'string'))
      recorded.set(call.id, effectsOf(view.items, call));
  }
  const cut = (item: ViewItem): ViewItem => {
    const effects = recorded.get(item.id);
    const residue = reduced.get(item.id);
    if (!residue) return effects ? Object.freeze({ ...item, effects: [...effects] }) : item;
    const { covers: _gone, ...rest } = item;
    return Object.freeze({
      ...rest,
      ...(effects ? { effects: [...effects] } : {}),
      content: residueText(view, item, residue),
    });
  };
  const items = view.items.filter((item) => !removed.has(item.id)).map(cut);
  // Every item removed so far, this step's and earlier steps', with where it stood (`withRemovedItems`): a place
  // between the kept items either side of it stays between them, so a later reduction does not move it. Rules that
  // order a transition read a removed result's place from it (effect-index).
  const earlier = [...removedItemsOf(view.items).values()].sort((a, b) => a.place - b.place);
  const gone = new Map<string, RemovedItem>();
  let kept = 0;
  let next = 0;
  view.items.forEach((item, at) => {
    for (; next < earlier.length && earlier[next]!.place < at; next++)
      gone.set(earlier[next]!.item.id, { item: earlier[next]!.item, place: kept - 0.5 });
    if (!removed.has(item.id)) kept += 1;
    else gone.set(item.id, { item, place: kept - 0.5 });
  });
  for (; next < earlier.length; next++)
    gone.set(earlier[next]!.item.id, { item: earlier[next]!.item, place: kept - 0.5 });
  // The coverage keys the runtime recorded on each item cut to its residue, this step's and earlier steps', while it
  // stays (`withResidueKeys`): the residue shows none, the record still says what the run observed.
  const keys = new Map([...residueKeysOf(view.items)].filter(([id]) => !removed.has(id)));
  for (const item of view.items)
    if (reduced.has(item.id) && !removed.has(item.id) && item.covers && item.covers.length > 0)
      keys.set(item.id, item.covers);
  return Object.freeze({
    ...view,
    items: withResidueKeys(withRemovedItems(Object.freeze(items), gone), keys),
    contextTokens: items.reduce((sum, item) => sum + item.tokens, 0),
  });
}

/** What a ladder knows part way through a view: its records so far, and the context and candidates as they stand. */
interface LadderState {
  readonly view: PolicyView;
  /** The visible obligations' ids, which every record lists as consulted. */
  readonly checked: readonly string[];
  readonly decided: Map<string, Eligibility>;
  readonly abstained: Map<string, Eligibility>;
  readonly consulted: Map<string, string[]>;
  /**
   * Items an earlier step's removal rests on staying (a copy, a twin, a newer observation, a consequence record),
   * with why: each rule judges the context as it stands, so without this a later rule could remove the very item an
   * earlier one relied on, and neither removal would rest on anything.
   */
  readonly leanedOn: Map<string, string>;
  /** Every item removed so far, wholly or to its residue. */
  readonly gone: Set<string>;
  candidates: string[];
  current: PolicyView;
}

function startState(view: PolicyView): LadderState {
  const checked = visibleIds(view);
  const split = splitByGate(view, checked);
  return {
    view,
    checked,
    decided: new Map(split.gated),
    abstained: new Map(),
    consulted: new Map(),
    leanedOn: new Map(),
    gone: new Set(),
    candidates: split.candidates,
    current: view,
  };
}

function noteConsulted(s: LadderState, id: string, ids: readonly string[] | undefined): void {
  s.consulted.set(id, mergeIds(s.consulted.get(id) ?? s.checked, ids));
}

/** One removing step: the rule judges the open candidates against the context as it stands, through the gate. */
function applyStep(s: LadderState, rule: ConfiguredMechanism, step: number): void {
  const findings = findingsById(rule.rule, rule.assess(s.current, s.candidates));
  // Two removals of this step where one rests on the other cannot both go: what the earlier rests on is held back
  // (it is then leaned on, below), and a removal resting on one already standing waits.
  const held = heldBackTogether(s.candidates, findings);
  const gated = regenerabilityGate(
    s.view,
    s.candidates.filter((id) => findings.get(id)?.outcome === 'eligible' && !held.has(id)),
    s.gone,
  );
  const removedNow = new Set<string>();
  const keptNow = new Set<string>();
  const wholly = new Set<string>();
  const cut = new Map<string, readonly ResidueField[]>();
  for (const id of s.candidates) {
    const finding = findings.get(id);
    if (!finding) continue;
    noteConsulted(s, id, finding.consulted);
    const record = (): Eligibility =>
      fromFinding(finding, rule.rule, rule.rung, s.consulted.get(id) ?? s.checked, step);
    const hold = held.get(id);
    const refusal = gated.get(id);
    if (hold !== undefined) {
      // Held back for a removal of this step: what that removal rests on is leaned on below, once it is made; a
      // removal resting on another of this step's abstains, as any abstention (an earlier one's record stands).
      if (hold.how === 'rests-on' && !s.abstained.has(id)) s.abstained.set(id, heldBackVerdict(record(), hold));
    } else if (refusal !== undefined) {
      // The refusal is what decides the item, whatever an earlier rule abstained on.
      s.abstained.set(id, refuse(record(), refusal));
    } else if (finding.outcome === 'eligible') {
      s.decided.set(id, record());
      removedNow.add(id);
      if (finding.residue) cut.set(id, finding.residue);
      else wholly.add(id);
    } else if (finding.outcome === 'keep') {
      // The rule's check ran and refused removal: that decides the item, whatever an earlier rule abstained on, and
      // no later step may undo it (a later supersession would take the very bulk this check kept).
      s.decided.set(id, record());
      keptNow.add(id);
    } else if (finding.binds === true) {
      // The check that could not run asked whether the item must stay, and no later rule asks it: the abstention
      // decides the item as a KEEP would, so no later step removes what that check might have kept.
      s.abstained.set(id, record());
      keptNow.add(id);
    } else if (!s.abstained.has(id)) {
      s.abstained.set(id, record());
    }
  }
  for (const id of removedNow) s.gone.add(id);
  for (const id of removedNow) {
    for (const kept of findings.get(id)?.reliesOn ?? []) {
      if (s.gone.has(kept) || s.leanedOn.has(kept)) continue;
      s.leanedOn.set(
        kept,
        `kept for an earlier removal: ${id}'s, by ${rule.rule} at step ${step}, rests on it staying`,
      );
    }
  }
  // What a removal rests on, and what a rule kept, leaves the candidates: no later step, the predictor's included, is
  // asked about it.
  s.candidates = s.candidates.filter((id) => !removedNow.has(id) && !keptNow.has(id) && !s.leanedOn.has(id));
  s.current = withoutItems(s.current, wholly, cut);
}

/**
 * Before the predictor is asked: an open candidate the gate refuses only because of what earlier steps removed (the
 * last holder of a removed user record's text, the last copy a removal with a refusal case leaned on) is leaned on by
 * that removal, as a finding's reliesOn is, and leaves the candidates, so the classifier is never shown it (rule 7).
 * The predictor's own gate cannot see this: it reads the context as it stands, not what left it. An item the gate
 * refuses with nothing removed is withheld by that own gate and is not leaned on by anything.
 */
function withholdGated(s: LadderState): void {
  if (s.gone.size === 0) return;
  const withheld = new Set<string>();
  const suspect = gateSuspects(s.view, s.gone);
  const { byId } = itemIndex(s.view.items);
  for (const id of s.candidates) {
    if (!suspect(byId.get(id)!)) continue;
    const refusal = regenerabilityGate(s.view, [id], s.gone).get(id);
    if (refusal === undefined) continue;
    // Refused with nothing removed too, it is gated on its own, and the predictor's own gate may not see it: a
    // residue left in context can hold a user record's text the whole item never did.
    withheld.add(id);
    if (!regenerabilityGate(s.view, [id]).has(id)) s.leanedOn.set(id, `kept for an earlier removal: ${refusal}`);
  }
  s.candidates = s.candidates.filter((id) => !withheld.has(id));
}

/**
 * What a ladder's predictor step is asked about after the ladder's evidence rules: the context as it then stands and
 * the candidates still open (none removed, none an earlier removal rests on, by its finding or through the gate). A
 * model-backed predictor's request for the ladders is built from this (providers/predictor.ts), so the model is shown
 * what the embedded predictor is.
 */
export function predictorStep(
  view: PolicyView,
  rules: readonly ConfiguredMechanism[],
): { readonly current: PolicyView; readonly candidates: readonly string[] } {
  const s = startState(view);
  rules.forEach((rule, index) => applyStep(s, rule, index + 1));
  withholdGated(s);
  return { current: s.current, candidates: s.candidates };
}

export function ladder(options: LadderOptions): Condition {
  const applied =
    options.predictor?.mode === 'apply' ? [...options.rules, options.predictor.mechanism] : [...options.rules];
  const all = options.predictor ? [...options.rules, options.predictor.mechanism] : applied;
  const rung = applied.reduce<Rung>((max, rule) => Math.max(max, rule.rung) as Rung, 0);
  const parameters: Record<string, number | string | boolean> = {};
  for (const rule of all) Object.assign(parameters, rule.parameters);
  if (options.predictor) parameters.predictorMode = options.predictor.mode;
  return {
    name: options.name,
    layer: 'B',
    rung,
    version: LADDER_VERSION,
    description: options.description,
    upperRisk: options.predictor?.mode === 'apply',
    consultsObligations: true,
    parameters,
    order: all.map((rule) => rule.rule),
    decide(view) {
      const s = startState(view);
      options.rules.forEach((rule, index) => applyStep(s, rule, index + 1));
      if (options.predictor) withholdGated(s);
      if (options.predictor?.mode === 'apply') applyStep(s, options.predictor.mechanism, applied.length);
      if (options.predictor?.mode === 'abstain') {
        const rule = options.predictor.mechanism;
        const step = applied.length + 1;
        const open = s.candidates.filter((id) => !s.abstained.has(id));
        const findings = findingsById(rule.rule, rule.assess(s.current, open));
        for (const id of open) {
          const finding = findings.get(id);
          if (!finding) continue;
          noteConsulted(s, id, finding.consulted);
          // A predictor that could not decide the item fails closed here too: ABSTAIN with its reason, never KEEP.
          const record = fromFinding(finding, rule.rule, rule.rung, s.consulted.get(id) ?? s.checked, step);
          s.abstained.set(
            id,
            finding.outcome === 'eligible'
              ? { ...record, verdict: 'abstain', reason: `${ONLY_PREDICTION} (${finding.reason})` }
              : record,
          );
        }
      }
      return view.items.map((item) => {
        const latest = s.consulted.get(item.id);
        const reliedOn = s.leanedOn.get(item.id);
        const final =
          s.decided.get(item.id) ??
          s.abstained.get(item.id) ??
          (reliedOn === undefined ? keepByDefault(item.id, s.checked) : keptFor(item.id, reliedOn, s.checked));
        // An abstention recorded at an early step lists what later steps consulted too.
        return latest && final.verdict === 'abstain' ? { ...final, obligationsConsulted: latest } : final;
      });
    },
  };
}
