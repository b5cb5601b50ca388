// The regenerability record's classes, computed only from what a runtime could know about an item. The guard
// refuses on them, every decision record carries them, and scoring raises re-fetch alerts on irreducible removals.
import { itemIndex } from '../fixture/item-index.js';
import { frozenMemo } from '../fixture/memo.js';
import type { PolicyView, ViewItem } from '../fixture/view.js';
import { toolDeclaration } from '../fixture/view.js';
import { heldTexts, holdsText, showsBlocksOf } from './held-text.js';
import { sameObservation } from './identity.js';

export type RegenerabilityClass = 'deterministic' | 'durable-pointer' | 'irreducible';

export interface Regenerability {
  readonly class: RegenerabilityClass;
  readonly why: string;
}

/** Why an item cannot be evicted under the regenerability record's refusal cases, if it cannot. */
export function refusalCase(view: PolicyView, item: ViewItem): string | undefined {
  const flagged = flagRefusal(item);
  if (flagged) return flagged;
  const side = toolDeclaration(view, item.tool?.name)?.sideEffect;
  if (item.kind === 'tool-result' && (side === 'non-idempotent' || side === 'destructive')) {
    return `output of a ${side} call`;
  }
  return undefined;
}

export function classify(view: PolicyView, item: ViewItem): Regenerability {
  const refusal = refusalCase(view, item);
  if (refusal) return { class: 'irreducible', why: refusal };
  if (item.flags.durablePointer)
    return { class: 'durable-pointer', why: `stored at ${item.flags.durablePointer.storeKey}` };
  if (item.origin === 'system') return { class: 'deterministic', why: 'supplied again by the runtime' };
  if (item.kind === 'tool-call') return { class: 'deterministic', why: 'the call is recorded in the runtime log' };
  if (item.kind !== 'tool-result')
    return { class: 'irreducible', why: `${item.origin} ${item.kind} exists only in this context` };
  const side = toolDeclaration(view, item.tool?.name)?.sideEffect;
  if (side === 'pure') return { class: 'deterministic', why: 'pure tool: the same arguments give the same bytes' };
  const source = item.source;
  if (source && source.mutable === false && source.identity !== 'UNKNOWN') {
    return { class: 'deterministic', why: `immutable source ${source.identity}` };
  }
  return { class: 'irreducible', why: 'read of mutable state: a re-read may return other bytes' };
}

export type Recoverability = 'durable-pointer' | 're-read' | 're-invoke' | 'none';

/** The recovery path a runtime could declare for an item once it leaves context (declared, not yet tested). */
export function recoverabilityOf(view: PolicyView, item: ViewItem): Recoverability {
  if (item.flags.durablePointer) return 'durable-pointer';
  if (item.kind !== 'tool-result') return 'none';
  const cls = classify(view, item).class;
  if (cls !== 'deterministic') return 'none';
  return item.source && item.source.identity !== 'UNKNOWN' ? 're-read' : 're-invoke';
}

/**
 * Why the regenerability gate refuses to remove an item, if it does: the record's refusal cases (above), a pending
 * step that references it (recorded as a flag, or declared in the view), what reaches it from its call, a call id or
 * a work unit (`reachedIn`: a refusal flag, plan flag or pin on its call; a reference to its call, its call id or its
 * unit), a user constraint, credential or
 * preference no other item in context holds, derived from the view beside the recorded flag, and a work unit's
 * consequence record while it is the last item in context holding one of the consequence strings it shows (the
 * unit's result lives there; once another item that stays holds every such string as a unit, the record may go, and
 * that item is then leaned on). Only what the runtime recorded counts: flags, tool declarations, kinds, origins, the
 * work units and the content in the view.
 */
export function gateRefusal(
  view: PolicyView,
  item: ViewItem,
  gone: ReadonlySet<string> = new Set(),
): string | undefined {
  const refusal = refusalCase(view, item);
  if (refusal) return refusal;
  const steps = view.visible.pendingSteps.filter((s) => s.references.includes(item.id)).map((s) => s.id);
  if (steps.length > 0) return `referenced by pending step ${steps.join(', ')}`;
  if (item.flags.pendingPlanReference) return 'referenced by a pending plan step';
  const reached = reachedIn(view).get(item.id);
  if (reached) return reached;
  if (item.origin === 'user' && USER_RECORDS.has(item.kind)) {
    const elsewhere = holdersOf(view.items, item).some((other) => !gone.has(other.id));
    if (!elsewhere) return `sole record of a user ${item.kind}`;
  }
  const recorded = consequencesIn(view).byRecord.get(item.id);
  if (recorded) {
    const unheld = recorded.filter((c) => !c.holders.some((other) => !gone.has(other.id)));
    if (unheld.length > 0) {
      const units = [...new Set(unheld.map((c) => c.unit))];
      const strings = [...new Set(unheld.map((c) => JSON.stringify(c.text)))];
      return `consequence record of work unit ${units.join(', ')} and the last item in context holding ${strings.join(', ')}`;
    }
  }
  return undefined;
}

/**
 * Per context, why what the runtime recorded elsewhere reaches an item (the call/result pair: `counterpart`): a
 * refusal flag (`refusalCase`'s flags), a pending-plan flag or a pin recorded on a call reaches its result; and a
 * pending step's reference reaches each item it names (an item by its id, a call's two halves by its call id, a work
 * unit's trace by the unit's id) and the result of each call among them. What an item's own record says is read
 * before this, so only what reaches it from its call, a call id or a unit is found here. Found once per view.
 */
const reachedIn = frozenMemo((view: PolicyView) => {
  const { byId, callOf, resultOf } = itemIndex(view.items);
  const reached = new Map<string, string>();
  const reach = (id: string, why: string): void => {
    if (!reached.has(id)) reached.set(id, why);
  };
  const pinned = new Set(view.visible.pinned);
  for (const [callId, result] of resultOf) {
    const call = callOf.get(callId);
    if (!call || result.kind !== 'tool-result') continue;
    const onCall = flagRefusal(call);
    if (onCall) reach(result.id, `${onCall}, recorded on its call ${call.id}`);
    else if (call.flags.pendingPlanReference)
      reach(result.id, `its call ${call.id} is referenced by a pending plan step`);
    else if (pinned.has(call.id)) reach(result.id, `its call ${call.id} is pinned by the runtime`);
  }
  const units = new Map(view.visible.workUnits.map((u) => [u.id, u]));
  for (const step of view.visible.pendingSteps)
    for (const ref of step.references) {
      const named: { item: ViewItem; via: string }[] = [];
      const item = byId.get(ref);
      if (item) named.push({ item, via: '' });
      for (const half of [callOf.get(ref), resultOf.get(ref)])
        if (half) named.push({ item: half, via: ` through its call id ${ref}` });
      for (const id of new Set(units.get(ref)?.traceItems ?? [])) {
        const traced = byId.get(id);
        if (traced) named.push({ item: traced, via: ` through work unit ${ref}, whose trace holds it` });
      }
      for (const { item: hit, via } of named) {
        if (via) reach(hit.id, `referenced by pending step ${step.id}${via}`);
        const result = hit.kind === 'tool-call' && hit.tool ? resultOf.get(hit.tool.callId) : undefined;
        if (result && result.id !== hit.id)
          reach(result.id, `referenced by pending step ${step.id} through its call ${hit.id}${via}`);
      }
    }
  return reached;
});

/** The refusal cases a runtime records as flags on an item (`refusalCase` without the tool's side effect). */
function flagRefusal(item: ViewItem): string | undefined {
  const f = item.flags;
  if (f.negativeResult) return 'negative result';
  if (f.oneTimeSecret) return 'one-time secret';
  if (f.transientState) return 'observation of transient state';
  if (f.soleConstraintRecord) return 'sole record of a user constraint';
  return undefined;
}

/** One consequence string a record in context shows, the unit it records, and the other items holding it whole. */
interface Recorded {
  readonly unit: string;
  readonly text: string;
  readonly holders: readonly ViewItem[];
}

/**
 * Per context, each work unit's consequence record in context (its `consequence.itemId`, whatever the unit's state)
 * with the consequence strings it shows and, for each, the other items that hold it as a unit (`holdsAsUnit`, as a
 * user record's holders); and, per holder, the records it holds a string of. Found once per view, not per removal.
 */
const consequencesIn = frozenMemo((view: PolicyView) => {
  const { byId } = itemIndex(view.items);
  const byRecord = new Map<string, Recorded[]>();
  const byHolder = new Map<string, ViewItem[]>();
  for (const unit of view.visible.workUnits) {
    const consequence = unit.consequence;
    if (!consequence || !('itemId' in consequence)) continue;
    const record = byId.get(consequence.itemId);
    if (!record) continue;
    for (const text of consequence.strings) {
      if (!holdsText(record, text)) continue;
      const holders = view.items.filter((other) => other.id !== record.id && holdsAsUnit(other.content, text));
      const list = byRecord.get(record.id);
      if (list) list.push({ unit: unit.id, text, holders });
      else byRecord.set(record.id, [{ unit: unit.id, text, holders }]);
      for (const holder of holders) {
        const held = byHolder.get(holder.id);
        if (!held) byHolder.set(holder.id, [record]);
        else if (!held.includes(record)) held.push(record);
      }
    }
  }
  return { byRecord, byHolder };
});

const USER_RECORDS: ReadonlySet<string> = new Set(['constraint', 'credential', 'preference']);

/**
 * Which items the gate could refuse alone given `gone` (`regenerabilityGate(view, [item], gone)`), found without
 * asking it item by item: an item with a refusal case or a pending step's reference, one `reachedIn` reaches, a user record, a consequence
 * record, an item showing the content of one gone (its copy may be what a refused removal leaned on), or a holder of
 * a gone user record's text or of a gone consequence record's strings. Every other item the gate lets through whatever is gone, so a caller asks the gate about these alone and
 * the cost stays linear in the context however much has gone.
 */
export function gateSuspects(view: PolicyView, gone: ReadonlySet<string>): (item: ViewItem) => boolean {
  const { byId } = itemIndex(view.items);
  const records = consequencesIn(view).byRecord;
  const goneContents = new Set<string>();
  const holdersOfGone = new Set<string>();
  for (const id of gone) {
    const item = byId.get(id);
    if (!item) continue;
    goneContents.add(item.content);
    if (item.origin === 'user' && USER_RECORDS.has(item.kind))
      for (const holder of holdersOf(view.items, item)) holdersOfGone.add(holder.id);
    for (const c of records.get(id) ?? []) for (const holder of c.holders) holdersOfGone.add(holder.id);
  }
  const referenced = new Set(view.visible.pendingSteps.flatMap((s) => s.references));
  const reached = reachedIn(view);
  return (item) =>
    refusalCase(view, item) !== undefined ||
    referenced.has(item.id) ||
    item.flags.pendingPlanReference === true ||
    reached.has(item.id) ||
    (item.origin === 'user' && USER_RECORDS.has(item.kind)) ||
    records.has(item.id) ||
    goneContents.has(item.content) ||
    holdersOfGone.has(item.id);
}

/**
 * Per context, the other items holding each user record: each text it shows (its content and each text block, as
 * `heldTexts` reads them; the schema does not bind the one to the other) repeated as a unit (`holdsAsUnit`), and each
 * of its other blocks (an image, a binary, by hash; `showsBlocksOf`), since a record's words repeated without the
 * image it carried are not the record. A record showing no text has no holder. Searched once, whatever was removed
 * since.
 */
const holdersIn = frozenMemo((_items: readonly ViewItem[]) => new Map<string, readonly ViewItem[]>());

function holdersOf(items: readonly ViewItem[], item: ViewItem): readonly ViewItem[] {
  const known = holdersIn(items);
  let holders = known.get(item.id);
  if (!holders) {
    const texts = [...new Set(heldTexts(item).map((t) => t.trim()))].filter((t) => t !== '');
    known.set(
      item.id,
      (holders =
        texts.length === 0
          ? []
          : items.filter(
              (other) =>
                other.id !== item.id &&
                texts.every((text) => holdsAsUnit(other.content, text)) &&
                showsBlocksOf(other, item),
            )),
    );
  }
  return holders;
}

/**
 * Whether `holder` repeats `text` as a unit of its own: a line, a quotation, or a sentence (after the start, a line
 * break, a quote mark, or a colon or sentence end and a space) that nothing after it in its clause qualifies. A bare
 * substring is not enough: "never use tabs" holds the words of "use tabs" and says the opposite, and so does "use tabs
 * unless the file uses spaces" or "use tabs only in Go files" after it. So the repeated text must close its clause
 * (`closesClause`); and a diff (`isDiff`) repeats nothing, since its lines are a file's text before or after an edit,
 * not something said. A user record counts as held elsewhere only where another item says it whole and unqualified.
 */
export function holdsAsUnit(holder: string, text: string): boolean {
  if (text === '') return false;
  const ended = ENDS_CLAUSE.test(text);
  for (let at = holder.indexOf(text); at !== -1; at = holder.indexOf(text, at + 1))
    if (opensUnit(holder, at) && closesClause(holder, at + text.length, ended)) return !isDiff(holder);
  return false;
}

const QUOTE_MARKS = '"\'`\u201c\u201d\u2018\u2019\u00ab\u00bb';

function opensUnit(s: string, at: number): boolean {
  if (at === 0) return true;
  const before = s[at - 1]!;
  if (before === '\n' || QUOTE_MARKS.includes(before)) return true;
  return /[\t ]/.test(before) && /[:.!?;*\u2022-]/.test(s[at - 2] ?? '');
}

/**
 * What may close a repeated text before its clause ends: closing quote marks and brackets, then optionally a run of
 * clause-ending punctuation and more closers; then horizontal white space, and what opens the next line if a line
 * break follows (its indentation and first character, when it has one).
 */
const CLAUSE_TAIL =
  /[)\]"'`\u201d\u2019\u00bb]*(?:([.!;]+)[)\]"'`\u201d\u2019\u00bb]*)?([\t ]*)(?:(\r?\n)(?:([\t ]*)\S)?)?/y;

/**
 * Whether the clause ends where a repeated text does, so that nothing said after it in the clause can qualify or
 * reverse it: at the end of the text or of its line (unless the next line is indented under it, a wrapped or nested
 * continuation such as "- use tabs\n  - except in Makefiles", whatever ends the line: "- Use tabs.\n  - except in
 * Makefiles" qualifies it as much), or at a sentence end or semicolon followed by white space or the line's end (the
 * text's own, where it ends with one), each after any closing quote marks or brackets.
 * A comma or a colon does not end it (the qualifications a restatement carries are set off by one: "use tabs, unless
 * asked", "use tabs: only in Go files"), a question mark asks rather than says, and a closing quote mark alone only
 * ends the quotation ('"use tabs" only in Go files').
 */
function closesClause(s: string, end: number, ended: boolean): boolean {
  CLAUSE_TAIL.lastIndex = end;
  const match = CLAUSE_TAIL.exec(s)!;
  const [, punctuation, space, lineBreak, indent] = match;
  if (lineBreak !== undefined && indent) return false;
  const lineEnds = lineBreak !== undefined || end + match[0].length === s.length;
  if ((ended || punctuation !== undefined) && (space !== '' || lineEnds)) return true;
  return lineEnds;
}

/** A repeated text that itself ends with clause-ending punctuation (a record written "Use tabs."), closers after it. */
const ENDS_CLAUSE = /[.!;][)\]"'`\u201d\u2019\u00bb]*$/;

/**
 * Whether a text is, or carries, a diff: a unified diff's header or hunk header, or lines opening with "-" and lines
 * opening with "+" both (a unified diff's or ndiff's removed and added lines; a bullet list uses one marker).
 * Nothing in it tells the patch's lines, context included, from prose around it, so it holds no user record: a
 * removed line opens like a bullet, and an added one says what a patch writes, not that the constraint holds.
 */
function isDiff(text: string): boolean {
  if (/^(?:diff --git |@@ -\d)/m.test(text)) return true;
  return /^-/m.test(text) && /^\+/m.test(text);
}

/**
 * The one regenerability gate every gated rule passes through before an eligibility becomes a removal. `removing`
 * are the items the rule would remove now (whole or to a residue: a partial removal is a removal too), in view
 * order; `gone` those already removed earlier (a ladder's earlier steps). An item with a refusal case may still go
 * when an identical copy of the same observation (`sameObservation`, rung 0's identity) stays in context; the copy
 * must itself stay, so among identical refused copies the latest is kept and the earlier ones may go. Returns the
 * refused items with the reason, naming the refusal case.
 */
export function regenerabilityGate(
  view: PolicyView,
  removing: readonly string[],
  gone: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const out = new Set([...gone, ...removing]);
  // What has gone for good: earlier removals and the ones this call has let through. Each of them left only because
  // what it leaned on (an identical copy, another holder of a user record's text) stays, so that must stay too.
  const settled = new Set(gone);
  const refused = new Map<string, string>();
  const { byId, withContent } = itemIndex(view.items);
  // Latest first, so a refused copy that must stay is the latest one and the earlier copies can lean on it.
  for (const id of [...removing].reverse()) {
    const item = byId.get(id);
    if (!item) continue;
    const refusal = gateRefusal(view, item, out) ?? leanedOnBy(view, item, settled, out);
    if (!refusal) {
      settled.add(id);
      continue;
    }
    if (copyStaying(view, item, out, withContent)) {
      settled.add(id);
      continue;
    }
    refused.set(id, `regenerability gate: ${refusal}, and no identical copy of it stays in context`);
    out.delete(id);
  }
  return refused;
}

/** An identical copy of the item (same content, then `sameObservation`) that stays in context, if one does. */
function copyStaying(
  view: PolicyView,
  item: ViewItem,
  out: ReadonlySet<string>,
  withContent: ReadonlyMap<string, readonly ViewItem[]>,
): ViewItem | undefined {
  return withContent
    .get(item.content)
    ?.find((other) => other.id !== item.id && !out.has(other.id) && sameObservation(view, item, other));
}

/**
 * Why an item with no refusal of its own must still stay: an item already gone with a refusal case left leaning on
 * it (its identical copy, the holder of a user record's text, or of a consequence record's strings), and with this one
 * gone too the refusal would hold with no identical copy left. Without this a later step removes the copy an earlier
 * step's removal relied on.
 */
function leanedOnBy(
  view: PolicyView,
  item: ViewItem,
  settled: ReadonlySet<string>,
  out: ReadonlySet<string>,
): string | undefined {
  const { withContent } = itemIndex(view.items);
  const leaning = [
    ...(withContent.get(item.content) ?? []),
    ...(recordsHeldBy(view.items).get(item.id) ?? []),
    ...(consequencesIn(view).byHolder.get(item.id) ?? []),
  ];
  for (const other of leaning) {
    if (other.id === item.id || !settled.has(other.id)) continue;
    const refusal = gateRefusal(view, other, out);
    if (refusal && !copyStaying(view, other, out, withContent))
      return `${refusal} (${other.id}, removed earlier, leaned on this item)`;
  }
  return undefined;
}

const userRecords = frozenMemo((items: readonly ViewItem[]) =>
  items.filter((i) => i.origin === 'user' && USER_RECORDS.has(i.kind)),
);

/**
 * Per context, the user records each item holds the text of, in context order: indexed once, so that asking what
 * leaned on an item is a lookup rather than a walk over every user record per removal.
 */
const recordsHeldBy = frozenMemo((items: readonly ViewItem[]) => {
  const byHolder = new Map<string, ViewItem[]>();
  for (const record of userRecords(items))
    for (const holder of holdersOf(items, record)) {
      const held = byHolder.get(holder.id);
      if (held) held.push(record);
      else byHolder.set(holder.id, [record]);
    }
  return byHolder;
});
