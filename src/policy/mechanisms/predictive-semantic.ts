// Rung 4, prediction: an estimate that an item will not be needed. It establishes nothing about safety, so alone
// it is the labelled upper-risk ablation; the conservative ladder only lets it abstain, and the regenerability
// guard lets it propose. All three reach prediction through the one `Predictor` seam below, so a model-backed
// predictor can replace the embedded lexical one without touching them. The seam fails closed: an unusable answer
// (a failure, an unknown id, a confidence below the threshold) is ABSTAIN for every item it would have decided, and
// what the runtime pinned, protects or must not evict is never shown to the classifier at all.
import { frozenMemo } from '../../fixture/memo.js';
import type { PolicyView, ViewItem } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import { protectionOf } from '../protection.js';
import { regenerabilityGate } from '../regenerability.js';
import type { Finding } from '../types.js';
import type { Prediction, Predictor, PredictorAbstention, PredictorScope } from '../predictor.js';
import { defineCondition } from '../definition.js';
import { single } from '../single.js';

export const PREDICTIVE_SEMANTIC = 'predictive-semantic';

export type { Prediction, Predictor, PredictorAbstention, PredictorScope } from '../predictor.js';

export function isAbstention(
  prediction: ReadonlyMap<string, Prediction> | PredictorAbstention,
): prediction is PredictorAbstention {
  return !(prediction instanceof Map);
}

/** Below this confidence a prediction is unusable: the item is ABSTAIN, neither kept nor removed on it. */
export const DEFAULT_MIN_CONFIDENCE = 0.5;

/** Why an item is never shown to the classifier under `scope`, or undefined when it may be. */
export function withheldFromClassifier(view: PolicyView, item: ViewItem, scope: PredictorScope): string | undefined {
  const protection = protectionOf(view, item);
  if (protection) return protection.reason;
  if (scope === 'ungated') return undefined;
  const known = gateRefusals(view);
  if (known.has(item)) return known.get(item);
  const refusal = regenerabilityGate(view, [item.id]).get(item.id);
  known.set(item, refusal);
  return refusal;
}

/**
 * Per (frozen) view, the gate's answer for each item asked alone: every gated consumer (each ladder, the guard, and
 * the embedded predictor inside each of them) asks it of the same view (memo.ts).
 */
const gateRefusals = frozenMemo((_view: PolicyView) => new Map<ViewItem, string | undefined>());

/** The candidates, in view order, that may be shown to the classifier under `scope`. */
export function classifierCandidates(view: PolicyView, candidates: readonly string[], scope: PredictorScope): string[] {
  const wanted = new Set(candidates);
  return view.items
    .filter((item) => wanted.has(item.id) && !withheldFromClassifier(view, item, scope))
    .map((item) => item.id);
}

/** What consulting the predictor gave for the items it was shown: usable predictions, or per-item abstentions. */
export interface Consultation {
  /** Items the classifier was shown. */
  readonly shown: readonly string[];
  /** Predicted unneeded with at least the threshold confidence. */
  readonly unneeded: ReadonlyMap<string, string>;
  /** Items whose prediction is unusable, with why. */
  readonly unusable: ReadonlyMap<string, string>;
}

/**
 * The one way every consumer asks the predictor: only the items it may see, and an answer naming anything it was not
 * shown is unusable as a whole (a predictor that strays past what it was asked cannot be trusted on the rest).
 */
export function consult(
  predictor: Predictor,
  view: PolicyView,
  candidates: readonly string[],
  scope: PredictorScope,
  minConfidence: number,
): Consultation {
  const shown = classifierCandidates(view, candidates, scope);
  const everyone = (why: string): Consultation => ({
    shown,
    unneeded: new Map(),
    unusable: new Map(shown.map((id) => [id, why])),
  });
  if (shown.length === 0) return { shown, unneeded: new Map(), unusable: new Map() };
  // The seam is typed, but a predictor is anyone's code: a throw, or an answer of another shape, fails closed too.
  let answer: unknown;
  try {
    answer = predictor(view, shown, scope);
  } catch (err) {
    return everyone(`predictor abstained: it failed (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!(answer instanceof Map)) {
    const abstain = (answer as Partial<PredictorAbstention> | null)?.abstain;
    return everyone(
      typeof abstain === 'string'
        ? `predictor abstained: ${abstain}`
        : 'predictor abstained: its answer is neither predictions nor an abstention',
    );
  }
  const asked = new Set(shown);
  const stray = [...answer.keys()].find((id) => !asked.has(id));
  if (stray !== undefined)
    return everyone(`predictor abstained: it named item "${String(stray)}", which it was not asked about`);
  const unneeded = new Map<string, string>();
  const unusable = new Map<string, string>();
  for (const id of shown) {
    if (!answer.has(id)) continue;
    const p: unknown = answer.get(id);
    if (!wellFormed(p)) {
      unusable.set(id, 'predictor abstained: its prediction is not a reason with a confidence between 0 and 1');
      continue;
    }
    if (!(p.confidence >= minConfidence)) {
      unusable.set(
        id,
        `predictor abstained: confidence ${String(p.confidence)} in "${p.reason}" is below the threshold ${String(minConfidence)}`,
      );
    } else {
      unneeded.set(id, p.reason);
    }
  }
  return { shown, unneeded, unusable };
}

/** A prediction as the seam defines it: a stated reason and a finite confidence in [0, 1]. */
function wellFormed(p: unknown): p is Prediction {
  if (typeof p !== 'object' || p === null) return false;
  const { reason, confidence } = p as Record<string, unknown>;
  return (
    typeof reason === 'string' &&
    reason.length > 0 &&
    typeof confidence === 'number' &&
    Number.isFinite(confidence) &&
    confidence >= 0 &&
    confidence <= 1
  );
}

/**
 * Default threshold on the share of the subgoal's content words an item contains. At 0.2 an item that shares at
 * least one word of a subgoal of up to five content words counts as relevant, and one that shares none of them, or
 * only one word of a longer subgoal, is predicted unneeded: aggressive on purpose, as a lexical relevance filter is,
 * which is what the upper-risk ablation has to expose.
 */
export const DEFAULT_THRESHOLD = 0.2;

/** Function words too common to carry relevance; short enough to audit, and only words of length >= 3 matter. */
const STOPWORDS: ReadonlySet<string> = new Set([
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'these',
  'those',
  'from',
  'into',
  'onto',
  'are',
  'was',
  'were',
  'been',
  'being',
  'has',
  'have',
  'had',
  'not',
  'but',
  'all',
  'any',
  'can',
  'its',
  'our',
  'out',
  'via',
  'per',
  'then',
  'than',
  'when',
  'what',
  'which',
  'who',
  'whom',
  'will',
  'would',
  'should',
  'could',
  'there',
  'their',
  'them',
  'they',
  'also',
  'only',
  'each',
  'such',
  'over',
  'under',
  'about',
  'after',
  'before',
  'again',
  'very',
  'just',
  'does',
  'did',
  'how',
  'why',
  'where',
  'while',
  'you',
  'your',
  'now',
  'yet',
  'let',
  'may',
  'must',
]);

/** Lowercased runs of ASCII letters and digits, length >= 3, not stopwords. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length >= 3 && !STOPWORDS.has(word)) words.add(word);
  }
  return words;
}

/** Share of the subgoal's content words found in the text; undefined when the subgoal has none to match. */
export function relevance(subgoal: string, text: string): number | undefined {
  return overlapWith(contentWords(subgoal), text);
}

/**
 * The share of `wanted` (content words) among the text's content words, as intersecting `wanted` with
 * `contentWords(text)` gives it, without splitting the text into a set of all its words: a wanted word is one of
 * them exactly when it occurs in the lowercased text between characters that are not [a-z0-9] (it is itself such a
 * run, of length >= 3 and no stopword). The same hits, so the same number.
 */
export function overlapWith(wanted: ReadonlySet<string>, text: string): number | undefined {
  if (wanted.size === 0) return undefined;
  const lower = text.toLowerCase();
  let hits = 0;
  for (const word of wanted) if (holdsWord(lower, word)) hits += 1;
  return hits / wanted.size;
}

function holdsWord(lower: string, word: string): boolean {
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
    const end = at + word.length;
    if (
      (at === 0 || !isWordChar(lower.charCodeAt(at - 1))) &&
      (end === lower.length || !isWordChar(lower.charCodeAt(end)))
    )
      return true;
  }
  return false;
}

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
}

/** A prune point's content words, found once however many conditions and thresholds ask. */
const wordsOfSubgoal = frozenMemo((point: PolicyView['prunePoint']) => contentWords(point.subgoal));

/** Per (frozen) prune point, each frozen item's relevance to its subgoal: every threshold and consumer asks it. */
const relevanceAt = frozenMemo((_point: PolicyView['prunePoint']) => new Map<ViewItem, number | undefined>());

function relevanceOf(point: PolicyView['prunePoint'], item: ViewItem): number | undefined {
  if (!Object.isFrozen(item)) return overlapWith(wordsOfSubgoal(point), item.content);
  const known = relevanceAt(point);
  if (known.has(item)) return known.get(item);
  const score = overlapWith(wordsOfSubgoal(point), item.content);
  known.set(item, score);
  return score;
}

/**
 * The embedded predictor: token-set overlap between an item's content and the prune point's subgoal. It follows the
 * seam's rule itself (it never scores an item withheld from the classifier), and, being a rule rather than an
 * estimate, states confidence 1 for every prediction.
 */
export function lexicalPredictor(threshold: number = DEFAULT_THRESHOLD): Predictor {
  return (view, candidates, scope) => {
    const shown = new Set(classifierCandidates(view, candidates, scope));
    const unneeded = new Map<string, Prediction>();
    for (const item of view.items) {
      if (!shown.has(item.id)) continue;
      const score = relevanceOf(view.prunePoint, item);
      // A subgoal with no content words gives no basis for any prediction, so nothing is proposed.
      if (score === undefined || score >= threshold) continue;
      unneeded.set(item.id, {
        reason: `lexical relevance ${score.toFixed(2)} to the subgoal is below threshold ${threshold}`,
        confidence: 1,
      });
    }
    return unneeded;
  };
}

export interface PredictiveSemanticParameters {
  readonly threshold?: number;
  /** Replaces the embedded lexical predictor (the seam for a model-backed one); `threshold` then only labels it. */
  readonly predictor?: Predictor;
  /** How an injected predictor is named in the condition's parameters (e.g. openai/gpt-4o-mini:predict-v2). */
  readonly predictorLabel?: string;
  /** Below this confidence a prediction is unusable (ABSTAIN). */
  readonly minConfidence?: number;
  /** What the classifier may be shown: `gated` (default), `ladder` for ladder-0-3 and ladder-0-4, `ungated` for the Layer A ablation. */
  readonly scope?: PredictorScope;
}

export function predictiveSemantic(parameters: PredictiveSemanticParameters = {}): ConfiguredMechanism {
  const threshold = parameters.threshold ?? DEFAULT_THRESHOLD;
  if (!(threshold >= 0 && threshold <= 1)) throw new Error(`threshold must be in [0, 1], got ${threshold}`);
  const minConfidence = parameters.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  if (!(minConfidence >= 0 && minConfidence <= 1))
    throw new Error(`minConfidence must be in [0, 1], got ${minConfidence}`);
  const scope = parameters.scope ?? 'gated';
  const predictor = parameters.predictor ?? lexicalPredictor(threshold);
  return {
    rule: PREDICTIVE_SEMANTIC,
    rung: 4,
    version: '2.6.0',
    parameters: {
      threshold,
      minConfidence,
      predictor: parameters.predictor ? (parameters.predictorLabel ?? 'injected') : 'lexical-overlap',
    },
    assess(view, candidates) {
      const { unneeded, unusable } = consult(predictor, view, candidates, scope, minConfidence);
      const findings: Finding[] = [];
      for (const item of view.items) {
        const why = unneeded.get(item.id);
        const failed = unusable.get(item.id);
        if (why !== undefined)
          findings.push({ itemId: item.id, outcome: 'eligible', reason: `predicted unneeded: ${why}` });
        else if (failed !== undefined) findings.push({ itemId: item.id, outcome: 'abstain', reason: failed });
      }
      return findings;
    },
  };
}

/**
 * Layer A's upper-risk ablation: the predictor alone, no gate (pinned and protected items are still never shown to
 * it), asking with the `ungated` scope. An injected model-backed predictor replaces the lexical one here too.
 */
export const definition = defineCondition({
  name: PREDICTIVE_SEMANTIC,
  layer: 'A',
  rung: 4,
  version: predictiveSemantic().version,
  description: `rung 4, upper-risk: lexical relevance to the subgoal below ${String(DEFAULT_THRESHOLD)}; no gate (pinned and protected items are never shown to the predictor)`,
  upperRisk: true,
  consultsObligations: false,
  parameters: { threshold: DEFAULT_THRESHOLD, minConfidence: DEFAULT_MIN_CONFIDENCE, predictor: 'lexical-overlap' },
  consumes: { predictor: 'ungated' },
  sweep: {
    parameter: 'threshold',
    values: [0.05, 0.1, 0.3, 0.4, 0.5],
    variant: (threshold, as) =>
      single(predictiveSemantic({ threshold, scope: 'ungated' }), {
        gate: false,
        upperRisk: true,
        ...as,
        description: `sweep of predictive-semantic: lexical relevance below ${String(threshold)}; no gate (upper-risk)`,
      }),
  },
  build: ({ predictor }) => {
    const mechanism = predictiveSemantic({
      ...(predictor ? { predictor: predictor.predictor, predictorLabel: predictor.label } : {}),
      scope: 'ungated',
    });
    const prediction = predictor
      ? `${predictor.label} predicts the item unneeded`
      : `lexical relevance to the subgoal below ${String(mechanism.parameters.threshold)}`;
    return single(mechanism, {
      gate: false,
      upperRisk: true,
      description: `rung 4, upper-risk: ${prediction}; no gate (pinned and protected items are never shown to the predictor)`,
    });
  },
});
