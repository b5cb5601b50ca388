// The preregistered comparisons, as data: the one list the report tests, Holm-corrects across, and that the
// preregistration copies. Each pairs two conditions on the same prune points; `candidate` is the condition under
// test and `reference` what it is compared with. Order is the order they are reported in.
export interface Comparison {
  readonly id: string;
  readonly candidate: string;
  readonly reference: string;
  readonly question: string;
}

const LAYER_A = ['exact-redundancy', 'source-identity', 'errored-input-residue', 'checked-supersession', 'verified-completion', 'predictive-semantic'];
const LADDER = ['ladder-0', 'ladder-0-1', 'ladder-0-2', 'ladder-0-3', 'ladder-0-4'];
const COMPARATORS = ['same-tool-args-dedup', 'observation-masking', 'oldest-first', 'regenerability-guard'];
/** The conservative policy the book proposes; prediction and the published comparators are measured against it. */
export const PROPOSED = 'ladder-0-3';

export const COMPARISONS: readonly Comparison[] = [
  ...LAYER_A.map((c) => ({ id: `${c}-vs-raw`, candidate: c, reference: 'raw', question: `what ${c} alone changes against keeping everything` })),
  ...LADDER.slice(1).map((c, i) => ({
    id: `${c}-vs-${LADDER[i]!}`, candidate: c, reference: LADDER[i]!, question: `the marginal effect of the rung ${c} adds to ${LADDER[i]!}`,
  })),
  { id: `predictive-semantic-vs-${PROPOSED}`, candidate: 'predictive-semantic', reference: PROPOSED, question: 'prediction alone against the conservative ladder' },
  ...COMPARATORS.map((c) => ({ id: `${c}-vs-${PROPOSED}`, candidate: c, reference: PROPOSED, question: `the published ${c} against the conservative ladder` })),
];

/**
 * The binary outcome per prune point that the exact McNemar tests compare, each Holm-corrected across all the
 * comparisons above as one family.
 */
export const BINARY_OUTCOMES = [
  { id: 'false-prune', label: 'point has a false prune' },
  { id: 'obligation-lost', label: 'point loses an obligation' },
] as const;
export type BinaryOutcome = (typeof BINARY_OUTCOMES)[number]['id'];
