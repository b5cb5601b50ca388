// Version 1 of the chapter 10 ablation (the pilot), kept so its criteria can still be evaluated and tested: the machine forms of its preregistration's acceptance criteria and outcome
// rows, the secondary comparisons (derived from the registry's layers and rungs), and the policy the chapter
// proposes. The generic evaluator, engine and registry live in src/; this is what is specific to the chapter.
import { builtInRegistry } from '../../../src/policy/registry.js';
import type { Check, CriterionForm, OutcomeForm } from '../../../src/report/criteria.js';
import { secondaryFromRegistry, type StudyDefinition } from '../../../src/report/study.js';

/** The conservative policy the book proposes; prediction and the published comparators are measured against it. */
export const PROPOSED = 'ladder-0-3';

const zeroFalsePrunes = (condition: string): Check => ({ kind: 'count-zero', condition, count: 'falsePrunes' });
const allObligations = (condition: string): Check => ({ kind: 'all-obligations', condition });
const safe = (condition: string) => ({
  subject: condition,
  checks: [zeroFalsePrunes(condition), allObligations(condition)],
});
const removesEnough = (condition: string) => ({
  subject: condition,
  checks: [
    { kind: 'rate-at-least', condition, measure: 'netReduction', threshold: 0.05 },
    { kind: 'bootstrap-lower-above', condition, measure: 'netReduction', bound: 0 },
  ] satisfies Check[],
});
const comparatorFalsePrunes = (condition: string, comparison: string) => ({
  subject: condition,
  checks: [
    { kind: 'wilson-lower-above', condition, measure: 'falsePruneRate', bound: 0 },
    { kind: 'holm-significant', comparison },
  ] satisfies Check[],
});

export const CRITERIA: readonly CriterionForm[] = [
  {
    id: 'A1',
    wording: 'a6cce1b19cbf',
    parts: ['exact-redundancy', 'source-identity', 'ladder-0', 'ladder-0-1'].map(safe),
  },
  { id: 'A2', wording: '007b308780f6', parts: ['ladder-0-1', 'ladder-0-3'].map(removesEnough) },
  {
    id: 'A3',
    wording: '20cc75e56abd',
    parts: ['errored-input-residue', 'checked-supersession', 'ladder-0-2'].map(safe),
  },
  {
    id: 'A4',
    wording: '00cb8655b671',
    parts: ['verified-completion', 'ladder-0-3'].map((c) => ({
      subject: c,
      checks: [...safe(c).checks, { kind: 'count-zero', condition: c, count: 'refetchAlerts' } satisfies Check],
    })),
  },
  {
    id: 'A5',
    wording: '524611bcda84',
    parts: [
      {
        subject: 'ladder-0-4 against ladder-0-3',
        checks: [
          {
            kind: 'difference-at-least',
            condition: 'ladder-0-4',
            reference: 'ladder-0-3',
            measure: 'falsePruneRate',
            threshold: 0.05,
          },
          {
            kind: 'difference-excludes',
            condition: 'ladder-0-4',
            reference: 'ladder-0-3',
            measure: 'falsePruneRate',
            value: 0,
          },
          { kind: 'holm-significant', comparison: 'C1' },
          { kind: 'holm-significant', comparison: 'C2' },
        ],
      },
    ],
  },
  {
    id: 'A6',
    wording: '7bfa11d178d1',
    parts: [
      comparatorFalsePrunes('same-tool-args-dedup', 'C4'),
      comparatorFalsePrunes('observation-masking', 'C5'),
      comparatorFalsePrunes('oldest-first', 'C6'),
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
  { id: 'O3', wording: '77fbaee6dfaf', kind: 'verdicts', when: [{ criterion: 'A3', verdict: 'not met' }] },
  { id: 'O4', wording: '96fd8cdc71fc', kind: 'verdicts', when: [{ criterion: 'A4', verdict: 'not met' }] },
  { id: 'O5', wording: '28b6557179e4', kind: 'verdicts', when: [{ criterion: 'A5', verdict: 'met' }] },
  {
    id: 'O6',
    wording: 'dd2e6545beb4',
    kind: 'verdicts',
    when: [{ criterion: 'A5', verdict: 'not met' }],
    backend: {
      role: 'predictor',
      note: 'the row speaks of the embedded lexical predictor, which this run did not use',
    },
  },
  { id: 'O7', wording: 'e57fe5cebd78', kind: 'per-part', criterion: 'A6', verdict: 'met' },
  { id: 'O8', wording: 'd0c6dd07444a', kind: 'verdicts', when: [{ criterion: 'A7', verdict: 'met' }] },
  {
    id: 'O9',
    wording: '5efe133042cf',
    kind: 'not-evaluable',
    reason:
      'needs cache effects and a cost of overhead, which this study does not observe (embedded policies spend 0 overhead tokens and no cache is simulated)',
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
];

export const STUDY: StudyDefinition = {
  name: 'ch10-ablation',
  criteria: CRITERIA,
  outcomes: OUTCOMES,
  secondary: secondaryFromRegistry(builtInRegistry(), PROPOSED),
  proposed: PROPOSED,
};
