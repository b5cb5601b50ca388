// The chapter 10 ablation as a study: the machine forms of its preregistration's acceptance criteria and outcome
// rows, the secondary comparisons (derived from the registry's layers and rungs), and the policy the chapter
// proposes. The generic evaluator, engine and registry live in src/; this is what is specific to the chapter.
import { builtInRegistry } from '../../src/policy/registry.js';
import type { Check, CriterionForm, OutcomeForm } from '../../src/report/criteria.js';
import { secondaryFromRegistry, type StudyDefinition } from '../../src/report/study.js';

/** The conservative policy the book proposes; prediction and the published comparators are measured against it. */
export const PROPOSED = 'ladder-0-3';

const noHarm = (condition: string): Check => ({ kind: 'rate-at-most', condition, measure: 'harmRate', threshold: 0 });
const noObligationLost = (condition: string): Check => ({
  kind: 'rate-at-most',
  condition,
  measure: 'obligationsLost',
  threshold: 0,
});
const safe = (condition: string) => ({ subject: condition, checks: [noHarm(condition), noObligationLost(condition)] });
const removesEnough = (condition: string) => ({
  subject: condition,
  checks: [
    { kind: 'rate-at-least', condition, measure: 'netReduction', threshold: 0.05 },
    { kind: 'bootstrap-lower-above', condition, measure: 'netReduction', bound: 0 },
  ] satisfies Check[],
});
const comparatorHarms = (condition: string, comparison: string) => ({
  subject: condition,
  checks: [
    { kind: 'bootstrap-lower-above', condition, measure: 'harmRate', bound: 0 },
    { kind: 'holm-significant', comparison },
  ] satisfies Check[],
});
/** A control that cannot game the corpus: it removes under 5% of raw tokens, or what it removes is harmful. */
const cannotGame = (condition: string) => ({
  subject: condition,
  checks: [
    {
      kind: 'any-of',
      checks: [
        { kind: 'bootstrap-upper-below', condition, measure: 'netReduction', bound: 0.05 },
        { kind: 'bootstrap-lower-above', condition, measure: 'harmRate', bound: 0.01 },
      ],
    },
  ] satisfies Check[],
});

/** Version 2's criteria: safety is judged on the harm rate and obligations lost, never on false prunes among removals. */
export const CRITERIA: readonly CriterionForm[] = [
  {
    id: 'A1',
    wording: '59524b4beea5',
    parts: ['exact-redundancy', 'source-identity', 'ladder-0', 'ladder-0-1'].map(safe),
  },
  { id: 'A2', wording: '007b308780f6', parts: ['ladder-0-1', 'ladder-0-3'].map(removesEnough) },
  {
    id: 'A3',
    wording: '4908539d25f1',
    parts: ['errored-input-residue', 'checked-supersession', 'ladder-0-2'].map(safe),
  },
  {
    id: 'A4',
    wording: 'b49cd2f26f24',
    parts: ['verified-completion', 'ladder-0-3'].map((c) => ({
      subject: c,
      checks: [...safe(c).checks, { kind: 'count-zero', condition: c, count: 'refetchAlerts' } satisfies Check],
    })),
  },
  {
    id: 'A5',
    wording: 'cea9c90e566c',
    parts: [
      {
        subject: 'ladder-0-4 against ladder-0-3',
        checks: [
          {
            kind: 'difference-at-least',
            condition: 'ladder-0-4',
            reference: 'ladder-0-3',
            measure: 'harmRate',
            threshold: 0.05,
          },
          { kind: 'difference-above', condition: 'ladder-0-4', reference: 'ladder-0-3', measure: 'harmRate', bound: 0 },
          { kind: 'holm-significant', comparison: 'C1' },
          { kind: 'holm-significant', comparison: 'C2' },
          { kind: 'holm-significant', comparison: 'C3' },
        ],
      },
    ],
  },
  {
    id: 'A6',
    wording: 'be359ee21ee7',
    parts: [
      comparatorHarms('same-tool-args-dedup', 'C4'),
      comparatorHarms('observation-masking', 'C5'),
      comparatorHarms('oldest-first', 'C6'),
    ],
  },
  {
    id: 'A7',
    wording: '76d87a75aeca',
    parts: [
      {
        subject: 'ladder-0-3 against ladder-0-4',
        checks: [
          { kind: 'rate-at-least', condition: 'ladder-0-3', measure: 'abstentionRate', threshold: 0.05 },
          { kind: 'holm-significant', comparison: 'C7' },
          { kind: 'difference-above', condition: 'ladder-0-4', reference: 'ladder-0-3', measure: 'coverage', bound: 0 },
        ],
      },
    ],
  },
  {
    id: 'A8',
    wording: '3c27dde84bb7',
    parts: [
      {
        subject: 'prune-all',
        checks: [{ kind: 'rate-at-least', condition: 'prune-all', measure: 'harmRate', threshold: 1 }],
      },
      cannotGame('id-only'),
      cannotGame('position-only'),
    ],
  },
];

export const OUTCOMES: readonly OutcomeForm[] = [
  {
    id: 'O1',
    wording: 'ee7d1b361f2d',
    kind: 'verdicts',
    when: [
      { criterion: 'A1', verdict: 'met' },
      { criterion: 'A2', verdict: 'met' },
    ],
  },
  {
    id: 'O2',
    wording: '906bbdea3344',
    kind: 'verdicts',
    when: [
      { criterion: 'A1', verdict: 'met' },
      { criterion: 'A2', verdict: 'not met' },
    ],
  },
  { id: 'O3', wording: 'd892ec1150e1', kind: 'verdicts', when: [{ criterion: 'A3', verdict: 'not met' }] },
  { id: 'O4', wording: 'b6a50b4ac1ab', kind: 'verdicts', when: [{ criterion: 'A4', verdict: 'not met' }] },
  { id: 'O5', wording: 'ad8e7c7d94de', kind: 'verdicts', when: [{ criterion: 'A5', verdict: 'met' }] },
  {
    id: 'O6',
    wording: '150b15c726c9',
    kind: 'verdicts',
    when: [{ criterion: 'A5', verdict: 'not met' }],
    backend: {
      role: 'predictor',
      note: 'the row speaks of the embedded lexical predictor, which this run did not use',
    },
  },
  { id: 'O7', wording: 'ae07cd6acaf0', kind: 'per-part', criterion: 'A6', verdict: 'met' },
  { id: 'O8', wording: 'd0c6dd07444a', kind: 'verdicts', when: [{ criterion: 'A7', verdict: 'met' }] },
  {
    id: 'O9',
    wording: '5efe133042cf',
    kind: 'not-evaluable',
    reason:
      'judged only in the exploratory economics table, which models cache effects rather than observing them; no preregistered criterion reads it',
  },
  {
    id: 'O10',
    wording: '720a27de21b8',
    kind: 'not-evaluable',
    reason: 'needs behaviour after pruning; no model is run on pruned contexts in this study',
    backend: {
      role: 'reader',
      note: 'a model answered probes on pruned contexts (tables/behaviour.md), but no preregistered criterion or design reads behaviour',
    },
  },
  { id: 'O11', wording: 'aaf6fedf068d', kind: 'no-reduction' },
  { id: 'O12', wording: 'aa5569c1e417', kind: 'verdicts', when: [{ criterion: 'A8', verdict: 'met' }] },
  { id: 'O13', wording: 'eee6bf84e71f', kind: 'verdicts', when: [{ criterion: 'A8', verdict: 'not met' }] },
];

export const STUDY: StudyDefinition = {
  name: 'ch10-ablation',
  criteria: CRITERIA,
  outcomes: OUTCOMES,
  secondary: secondaryFromRegistry(builtInRegistry(), PROPOSED),
  proposed: PROPOSED,
};
