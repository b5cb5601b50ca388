// Rung 4, prediction: an estimate that an item will not be needed. It establishes nothing about safety, so alone
// it is the labelled upper-risk ablation; the conservative ladder only lets it abstain, and the regenerability
// guard lets it propose. All three reach prediction through the one `Predictor` seam below, so a model-backed
// predictor can replace the embedded lexical one without touching them.
import type { PolicyView } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import type { Finding } from '../types.js';

export const PREDICTIVE_SEMANTIC = 'predictive-semantic';

/**
 * The items among `candidates` predicted not to be needed, each with the predictor's stated basis. Keys are
 * meaningful only as a lookup: callers walk the view's order, never the map's.
 */
export type Predictor = (view: PolicyView, candidates: readonly string[]) => ReadonlyMap<string, string> | PredictorAbstention;

/** A predictor that could not predict (a model answered unparseably or failed): every candidate is ABSTAIN with why. */
export interface PredictorAbstention {
  readonly abstain: string;
}

export function isAbstention(prediction: ReadonlyMap<string, string> | PredictorAbstention): prediction is PredictorAbstention {
  return !(prediction instanceof Map);
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
  'the', 'and', 'for', 'with', 'that', 'this', 'these', 'those', 'from', 'into', 'onto', 'are', 'was', 'were',
  'been', 'being', 'has', 'have', 'had', 'not', 'but', 'all', 'any', 'can', 'its', 'our', 'out', 'via', 'per',
  'then', 'than', 'when', 'what', 'which', 'who', 'whom', 'will', 'would', 'should', 'could', 'there', 'their',
  'them', 'they', 'also', 'only', 'each', 'such', 'over', 'under', 'about', 'after', 'before', 'again', 'very',
  'just', 'does', 'did', 'how', 'why', 'where', 'while', 'you', 'your', 'now', 'yet', 'let', 'may', 'must',
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
  const wanted = contentWords(subgoal);
  if (wanted.size === 0) return undefined;
  const present = contentWords(text);
  let hits = 0;
  for (const word of wanted) if (present.has(word)) hits += 1;
  return hits / wanted.size;
}

/** The embedded predictor: token-set overlap between an item's content and the prune point's subgoal. */
export function lexicalPredictor(threshold: number = DEFAULT_THRESHOLD): (view: PolicyView, candidates: readonly string[]) => ReadonlyMap<string, string> {
  return (view, candidates) => {
    const wanted = new Set(candidates);
    const unneeded = new Map<string, string>();
    for (const item of view.items) {
      if (!wanted.has(item.id)) continue;
      const score = relevance(view.prunePoint.subgoal, item.content);
      // A subgoal with no content words gives no basis for any prediction, so nothing is proposed.
      if (score === undefined || score >= threshold) continue;
      unneeded.set(item.id, `lexical relevance ${score.toFixed(2)} to the subgoal is below threshold ${threshold}`);
    }
    return unneeded;
  };
}

export interface PredictiveSemanticParameters {
  readonly threshold?: number;
  /** Replaces the embedded lexical predictor (the seam for a model-backed one); `threshold` then only labels it. */
  readonly predictor?: Predictor;
  /** How an injected predictor is named in the condition's parameters (e.g. openai/gpt-4o-mini:predict-v1). */
  readonly predictorLabel?: string;
}

export function predictiveSemantic(parameters: PredictiveSemanticParameters = {}): ConfiguredMechanism {
  const threshold = parameters.threshold ?? DEFAULT_THRESHOLD;
  if (!(threshold >= 0 && threshold <= 1)) throw new Error(`threshold must be in [0, 1], got ${threshold}`);
  const predictor = parameters.predictor ?? lexicalPredictor(threshold);
  return {
    rule: PREDICTIVE_SEMANTIC,
    rung: 4,
    version: '1.0.0',
    parameters: { threshold, predictor: parameters.predictor ? parameters.predictorLabel ?? 'injected' : 'lexical-overlap' },
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const unneeded = predictor(view, candidates);
      if (isAbstention(unneeded)) {
        return candidates.map((itemId): Finding => ({ itemId, outcome: 'abstain', reason: `predictor abstained: ${unneeded.abstain}` }));
      }
      const findings: Finding[] = [];
      for (const item of view.items) {
        const why = unneeded.get(item.id);
        if (why !== undefined && wanted.has(item.id)) {
          findings.push({ itemId: item.id, outcome: 'eligible', reason: `predicted unneeded: ${why}` });
        }
      }
      return findings;
    },
  };
}
