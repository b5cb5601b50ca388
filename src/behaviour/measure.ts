// Behavioural measures of one prune point for one condition: every obligation's probe (visible and downstream)
// answered from the full context and from the pruned one, epoch by epoch, and the paired difference. The full
// context at a prune point is exactly what `raw` keeps, so the pairing is against raw on the same probes.
import type { Behaviour, BehaviourSide, ObligationOutcome } from '../artifacts/schema.js';
import type { Fixture, Obligation, PrunePoint } from '../fixture/schema.js';
import { frozenMemo } from '../fixture/memo.js';
import type { PolicyView } from '../fixture/view.js';
import { obligationsAt } from '../oracle/obligations.js';
import { pool, ratio } from '../score/ratio.js';
import type { AppliedRemoval } from '../score/score.js';
import { poolUsage, usageOf, type CallCharge } from '../providers/telemetry.js';
import type { ContextEntry, Judgement, ProbeInput, Reader } from './reader.js';
import { STRUCTURAL } from './structural.js';

export interface PointBehaviourInput {
  readonly fixture: Fixture;
  readonly point: PrunePoint;
  readonly view: PolicyView;
  readonly removals: readonly AppliedRemoval[];
  readonly outcomes: readonly ObligationOutcome[];
}

/** The context after the removals; an entry whose removal left nothing (placeholders none) is gone. */
export function prunedContext(view: PolicyView, removals: readonly AppliedRemoval[]): ContextEntry[] {
  const removed = new Map(removals.map((r) => [r.itemId, r]));
  return view.items.flatMap((item): ContextEntry[] => {
    const r = removed.get(item.id);
    if (!r) return [{ id: item.id, kind: item.kind, text: item.content, removed: false }];
    return r.leftBehind === '' ? [] : [{ id: item.id, kind: item.kind, text: r.leftBehind, removed: true }];
  });
}

export function fullContext(view: PolicyView): ContextEntry[] {
  return view.items.map((item) => ({ id: item.id, kind: item.kind, text: item.content, removed: false }));
}

/** An obligation that carries a user constraint: it names, or needs a string of, a constraint item. */
export function carriesConstraint(o: Obligation, view: PolicyView): boolean {
  return view.items.some(
    (item) =>
      (item.kind === 'constraint' || item.flags.soleConstraintRecord) &&
      (o.needs.itemIds.includes(item.id) || o.needs.strings.some((s) => item.content.includes(s))),
  );
}

interface Answered {
  readonly obligation: Obligation;
  readonly constraint: boolean;
  readonly factsPresent: boolean;
  readonly recovered: boolean;
  readonly judgement: Judgement;
}

function side(answers: readonly Answered[]): BehaviourSide {
  const count = (f: (a: Answered) => boolean): number => answers.filter(f).length;
  const constraint = answers.filter((a) => a.constraint);
  const missing = answers.filter((a) => !a.factsPresent);
  return {
    taskSuccess: ratio(
      count((a) => a.judgement.correct),
      answers.length,
    ),
    constraintViolations: ratio(constraint.filter((a) => !a.judgement.correct).length, constraint.length),
    unsupportedClaims: ratio(
      count((a) => a.judgement.answered && (!a.judgement.correct || !(a.factsPresent || a.recovered))),
      answers.length,
    ),
    recoveryFailures: ratio(missing.filter((a) => !a.recovered).length, missing.length),
    errors: count((a) => a.judgement.error),
  };
}

/**
 * Per context, what does not depend on the condition: the full context itself, and for each obligation whether it
 * carries a constraint. Every condition at a prune point shares them.
 */
const sharedIn = frozenMemo((view: PolicyView) => ({
  full: Object.freeze(fullContext(view)),
  constraint: new Map<Obligation, boolean>(),
}));

function once(known: Map<Obligation, boolean>, o: Obligation, find: () => boolean): boolean {
  let value = known.get(o);
  if (value === undefined) known.set(o, (value = find()));
  return value;
}

const SIDES = ['full', 'pruned'] as const;

/** A point's two contexts, the pruned one built on first use. */
class Contexts {
  #pruned: readonly ContextEntry[] | undefined;
  constructor(
    readonly full: readonly ContextEntry[],
    pruned: readonly ContextEntry[] | undefined,
    private readonly view: PolicyView,
    private readonly removals: readonly AppliedRemoval[],
  ) {
    this.#pruned = pruned;
  }
  of(side: (typeof SIDES)[number]): readonly ContextEntry[] {
    if (side === 'full') return this.full;
    this.#pruned ??= prunedContext(this.view, this.removals);
    return this.#pruned;
  }
}

/**
 * One probe as a reader is asked it; its context is read through a getter on the class, so that a reader that never
 * reads it never has it built (a getter on each probe's own object literal cost more than building the context).
 */
class Probe implements ProbeInput {
  readonly fixture: Fixture;
  readonly point: PrunePoint;
  readonly view: PolicyView;
  constructor(
    input: PointBehaviourInput,
    readonly side: (typeof SIDES)[number],
    private readonly contexts: Contexts,
    readonly obligation: Obligation,
    readonly factsPresent: boolean,
    readonly recovered: boolean,
    readonly epoch: number,
  ) {
    this.fixture = input.fixture;
    this.point = input.point;
    this.view = input.view;
  }
  get context(): readonly ContextEntry[] {
    return this.contexts.of(this.side);
  }
}

export function pointBehaviour(reader: Reader, input: PointBehaviourInput): Behaviour {
  const obligations = [...input.point.visible.obligations, ...input.point.downstream];
  const outcomeOf = new Map(input.outcomes.map((o) => [o.id, o]));
  const shared = sharedIn(input.view);
  // With nothing removed the pruned context is the full one, entry for entry.
  const unchanged = input.removals.length === 0;
  // The pruned context is built when a reader first reads it: the structural reader answers from the judged facts
  // alone and never does, and building it for every condition at every point was a fifth of the behaviour measure.
  const contexts = new Contexts(shared.full, unchanged ? shared.full : undefined, input.view, input.removals);
  // Whether the facts are in context is the scoring's own judgement (anyOf, facts, placeholder text), without recovery.
  // obligationsAt judges the same obligations in the same order, and how an obligation holds does not depend on its
  // visibility; it judges each distinct context once for every condition that leaves it.
  const base = { fixture: input.fixture, point: input.point, view: input.view };
  const full = obligationsAt({ ...base, removals: [] });
  const judged = {
    full,
    pruned: unchanged ? full : obligationsAt({ ...base, removals: input.removals }),
  };
  const answers = { full: [] as Answered[], pruned: [] as Answered[] };
  // What does not change from epoch to epoch, looked up once per obligation rather than per probe.
  const fixed = obligations.map((obligation) => ({
    how: outcomeOf.get(obligation.id)?.how,
    constraint: once(shared.constraint, obligation, () => carriesConstraint(obligation, input.view)),
  }));
  for (let epoch = 0; epoch < reader.epochs; epoch += 1) {
    for (const [k, obligation] of obligations.entries()) {
      const { how, constraint } = fixed[k]!;
      for (const which of SIDES) {
        const present = judged[which][k]!.how === 'present';
        const recovered = !present && which === 'pruned' && (how === 'pointer' || how === 're-read');
        const judgement = reader.judge(new Probe(input, which, contexts, obligation, present, recovered, epoch));
        answers[which].push({ obligation, constraint, factsPresent: present, recovered, judgement });
      }
    }
  }
  let caused = 0;
  let fullCorrect = 0;
  answers.full.forEach((f, i) => {
    if (!f.judgement.correct) return;
    fullCorrect += 1;
    if (!answers.pruned[i]!.judgement.correct) caused += 1;
  });
  const probes = answers.full.length;
  const prunedCorrect = answers.pruned.filter((a) => a.judgement.correct).length;
  const charges = [...answers.full, ...answers.pruned].flatMap((a) => (a.judgement.charge ? [a.judgement.charge] : []));
  return {
    ...readerOf(reader),
    probes,
    full: side(answers.full),
    pruned: side(answers.pruned),
    paired: {
      causedFailures: ratio(caused, fullCorrect),
      successDifference: successDifference(prunedCorrect, fullCorrect, probes),
    },
    usage: usageOf(dedupe(charges)),
  };
}

/** Which reader answered, as every behaviour block records it. */
function readerOf(reader: Reader): Pick<Behaviour, 'reader' | 'epochs' | 'temperature' | 'seeds' | 'recoveryJudgedBy'> {
  const who = {
    reader: reader.label,
    epochs: reader.epochs,
    temperature: reader.temperature,
    seeds: reader.seeds ? [...reader.seeds] : null,
  };
  // The embedded run's blocks stay byte-identical: only a model reader's block carries the label.
  return reader.label === STRUCTURAL ? who : { ...who, recoveryJudgedBy: STRUCTURAL };
}

/** Pruned minus full correct answers over the probes; undefined (null) with no probes, never 0. */
function successDifference(prunedCorrect: number, fullCorrect: number, probes: number): number | null {
  return probes === 0 ? null : (prunedCorrect - fullCorrect) / probes;
}

/** The full-context call is shared by every condition at a prune point; within a point, count each call once. */
function dedupe(charges: readonly CallCharge[]): CallCharge[] {
  const seen = new Set<string>();
  return charges.filter((c) => {
    if (seen.has(c.call.key)) return false;
    seen.add(c.call.key);
    return true;
  });
}

function poolSide(sides: readonly BehaviourSide[]): BehaviourSide {
  return {
    taskSuccess: pool(sides.map((s) => s.taskSuccess)),
    constraintViolations: pool(sides.map((s) => s.constraintViolations)),
    unsupportedClaims: pool(sides.map((s) => s.unsupportedClaims)),
    recoveryFailures: pool(sides.map((s) => s.recoveryFailures)),
    errors: sides.reduce((n, s) => n + s.errors, 0),
  };
}

/** Pools by summing counts; every block comes from the same reader in one run. */
export function poolBehaviour(blocks: readonly Behaviour[], reader: Reader): Behaviour {
  const probes = blocks.reduce((n, b) => n + b.probes, 0);
  const full = poolSide(blocks.map((b) => b.full));
  const pruned = poolSide(blocks.map((b) => b.pruned));
  return {
    ...readerOf(reader),
    probes,
    full,
    pruned,
    paired: {
      causedFailures: pool(blocks.map((b) => b.paired.causedFailures)),
      successDifference: successDifference(pruned.taskSuccess.numerator, full.taskSuccess.numerator, probes),
    },
    usage: poolUsage(blocks.map((b) => b.usage)),
  };
}
