// The machine forms of a preregistration's acceptance criteria and outcome table (the kinds of check a criterion
// can be restated as), and the code that evaluates them on the report's figures. A study's own forms live with the
// study (experiments/<study>/study.ts); each form pins the sha256 of the wording it was written from, so an edited
// criterion is refused rather than judged by a form written for other words. Verdicts are never stored: they follow
// from the figures every time.
import { sha256 } from '../fixture/canonical.js';
import { EMBEDDED } from '../providers/embedded.js';
import { wilson, type BootstrapResult, type Proportion } from './stats.js';

/** Rates whose fixture-bootstrap difference between two conditions a criterion can ask for. */
export type RateMeasure = 'falsePruneRate' | 'coverage' | 'netReduction' | 'harmRate' | 'obligationsLost';

/** The primary safety measures: harm rate and obligations lost, each unit counted once per fixture. */
export type SafetyMeasure = 'harmRate' | 'obligationsLost';

export type Check =
  /** A pooled count is exactly 0. */
  | { readonly kind: 'count-zero'; readonly condition: string; readonly count: 'falsePrunes' | 'refetchAlerts' }
  /** Obligations preserved equals obligations declared. */
  | { readonly kind: 'all-obligations'; readonly condition: string }
  /** A pooled rate is at least a threshold. */
  | {
      readonly kind: 'rate-at-least';
      readonly condition: string;
      readonly measure: 'netReduction' | 'abstentionRate' | 'harmRate';
      readonly threshold: number;
    }
  /** The lower end of a condition's fixture-bootstrap interval is above a bound. */
  | {
      readonly kind: 'bootstrap-lower-above';
      readonly condition: string;
      readonly measure: 'netReduction' | SafetyMeasure;
      readonly bound: number;
    }
  /** The lower end of a pooled rate's Wilson interval is above a bound. */
  | {
      readonly kind: 'wilson-lower-above';
      readonly condition: string;
      readonly measure: 'falsePruneRate';
      readonly bound: number;
    }
  /** Pooled rate of `condition` minus that of `reference` is at least a threshold. */
  | {
      readonly kind: 'difference-at-least';
      readonly condition: string;
      readonly reference: string;
      readonly measure: 'falsePruneRate' | SafetyMeasure;
      readonly threshold: number;
    }
  /** The fixture-bootstrap interval of the difference excludes a value (lies wholly on either side). */
  | {
      readonly kind: 'difference-excludes';
      readonly condition: string;
      readonly reference: string;
      readonly measure: RateMeasure;
      readonly value: number;
    }
  /** The fixture-bootstrap interval of the difference lies above a bound. */
  | {
      readonly kind: 'difference-above';
      readonly condition: string;
      readonly reference: string;
      readonly measure: RateMeasure;
      readonly bound: number;
    }
  /** A safety measure's pooled rate is at most a threshold (undefined at 0/0). */
  | {
      readonly kind: 'rate-at-most';
      readonly condition: string;
      readonly measure: SafetyMeasure;
      readonly threshold: number;
    }
  /** The upper end of a safety measure's fixture-cluster bootstrap interval is below a bound. */
  | {
      readonly kind: 'bootstrap-upper-below';
      readonly condition: string;
      readonly measure: SafetyMeasure | 'netReduction';
      readonly bound: number;
    }
  /** The upper end of the fixture-bootstrap interval of condition minus reference is below a bound. */
  | {
      readonly kind: 'difference-below';
      readonly condition: string;
      readonly reference: string;
      readonly measure: RateMeasure;
      readonly bound: number;
    }
  /** A preregistered comparison is significant after Holm correction (adjusted p at most alpha). */
  | { readonly kind: 'holm-significant'; readonly comparison: string }
  /** At least one of the checks holds (Kleene disjunction: true if any is true, else undefined if any is undefined). */
  | { readonly kind: 'any-of'; readonly checks: readonly Check[] };

export interface CriterionForm {
  /** The preregistration's acceptance id. */
  readonly id: string;
  /** First 12 hex digits of the sha256 of the criterion's wording this form restates. */
  readonly wording: string;
  /** What each part is judged for; the criterion is met when every part is. */
  readonly parts: readonly { readonly subject: string; readonly checks: readonly Check[] }[];
}

/**
 * A row whose wording presumes the preregistered embedded backend for a role (the lexical predictor, no model
 * reading pruned contexts). On a run where the manifest names another provider for that role, the row is not
 * evaluable as worded, and says which backend ran instead.
 */
export interface BackendPresumed {
  readonly role: 'predictor' | 'reader';
  /** Why the wording does not fit another backend. */
  readonly note: string;
}

export type OutcomeForm =
  /** The row holds when each named criterion has the given verdict. */
  (
    | {
        readonly id: string;
        readonly wording: string;
        readonly kind: 'verdicts';
        readonly when: readonly { readonly criterion: string; readonly verdict: 'met' | 'not met' }[];
      }
    /** The row holds for each part ("for it") of a criterion judged per part that has the verdict. */
    | {
        readonly id: string;
        readonly wording: string;
        readonly kind: 'per-part';
        readonly criterion: string;
        readonly verdict: 'met' | 'not met';
      }
    /** The row holds when no condition other than the control has a net reduction whose bootstrap interval lies above 0. */
    | { readonly id: string; readonly wording: string; readonly kind: 'no-reduction' }
    | { readonly id: string; readonly wording: string; readonly kind: 'not-evaluable'; readonly reason: string }
  ) & { readonly backend?: BackendPresumed };

/** The first 12 hex digits of a wording's sha256, as forms pin it. */
export function wordingPin(text: string): string {
  return sha256(text).slice(0, 12);
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluation. The evidence is what the analysis computed; the evaluators only read it.

export interface ConditionEvidence {
  readonly condition: string;
  readonly layer: string;
  readonly falsePruneRate: Proportion;
  readonly obligationsPreserved: Proportion;
  readonly abstentionRate: Proportion;
  readonly coverage: Proportion;
  /** Necessary units removed over necessary units, once per fixture; lo/hi from the fixture-cluster bootstrap. */
  readonly harmRate: Proportion;
  /** Declared obligations lost, once per fixture; lo/hi from the fixture-cluster bootstrap. */
  readonly obligationsLost: Proportion;
  readonly refetchAlerts: number;
  readonly reduction: BootstrapResult;
}

export interface ComparisonEvidence {
  readonly id: string;
  readonly candidate: string;
  readonly reference: string;
  readonly test: { readonly b: number; readonly c: number; readonly p: number } | null;
  /** Holm-adjusted p; null when the comparison could not be run on these results. */
  readonly pHolm: number | null;
}

export interface DifferenceEvidence {
  readonly measure: RateMeasure;
  readonly condition: string;
  readonly reference: string;
  /** Pooled rate of condition minus reference, with the paired fixture bootstrap. */
  readonly interval: BootstrapResult;
}

export interface Evidence {
  readonly alpha: number;
  /** The manifest's backends per role; absent means the embedded ones. */
  readonly models?: readonly { readonly role: string; readonly provider: string; readonly model: string | null }[];
  readonly rows: readonly ConditionEvidence[];
  readonly comparisons: readonly ComparisonEvidence[];
  readonly differences: readonly DifferenceEvidence[];
}

/** true met, false not met, null undefined (the figure it needs is undefined or absent). */
export type Truth = boolean | null;

export interface CheckResult {
  readonly check: Check;
  /** What is tested, in words. */
  readonly test: string;
  /** The figures it rests on, as printed. */
  readonly figures: string;
  readonly numerator: number | null;
  readonly denominator: number | null;
  readonly value: number | null;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly truth: Truth;
  /** Why the check is undefined, or a caution about a met check; empty otherwise. */
  readonly note: string;
}

export interface PartResult {
  readonly subject: string;
  readonly truth: Truth;
  readonly checks: readonly CheckResult[];
}

export interface CriterionResult {
  readonly id: string;
  readonly hypothesis: string;
  readonly criterion: string;
  readonly truth: Truth;
  /** One line: which part and check decided the verdict. */
  readonly why: string;
  readonly parts: readonly PartResult[];
}

export interface OutcomeResult {
  readonly id: string;
  readonly pattern: string;
  readonly meaning: string;
  /** 'not evaluable' when the results lack the measure the pattern needs. */
  readonly status: 'holds' | 'does not hold' | 'undefined' | 'not evaluable';
  readonly detail: string;
  /** The criteria the row's pattern is stated in. */
  readonly criteria: readonly string[];
}

export const verdict = (t: Truth): string => (t === true ? 'met' : t === false ? 'not met' : 'undefined');

/** Kleene conjunction: false if any is false, else undefined if any is undefined, else true. */
export function all(truths: readonly Truth[]): Truth {
  if (truths.some((t) => t === false)) return false;
  return truths.some((t) => t === null) ? null : true;
}

const num = (x: number | null, digits = 3) => (x === null ? 'undefined' : x.toFixed(digits));
const prop = (p: Proportion) =>
  `${p.numerator}/${p.denominator} = ${num(p.value)}${p.value === null ? '' : ` [${num(p.lo)}, ${num(p.hi)}]`}`;
const boot = (r: BootstrapResult) =>
  r.estimate === null ? 'undefined' : `${num(r.estimate)} [${num(r.lo)}, ${num(r.hi)}]`;

const blank = { numerator: null, denominator: null, value: null, lo: null, hi: null, note: '' } as const;

function evaluateCheck(check: Check, e: Evidence): CheckResult {
  if (check.kind === 'any-of') {
    const results = check.checks.map((c) => evaluateCheck(c, e));
    const truth = results.some((r) => r.truth === true) ? true : results.some((r) => r.truth === null) ? null : false;
    const decided = results.find((r) => r.truth === true) ?? results.find((r) => r.truth === null) ?? results[0];
    return {
      check,
      test: results.map((r) => r.test).join(' OR '),
      figures: results.map((r) => r.figures).join('; '),
      ...blank,
      value: decided?.value ?? null,
      lo: decided?.lo ?? null,
      hi: decided?.hi ?? null,
      truth,
      note: results
        .map((r) => r.note)
        .filter(Boolean)
        .join('; '),
    };
  }
  if (check.kind === 'holm-significant') {
    const c = e.comparisons.find((x) => x.id === check.comparison);
    const test = `${check.comparison} significant after Holm (adjusted p <= ${e.alpha})`;
    if (!c || c.test === null || c.pHolm === null) {
      return {
        check,
        test,
        figures: 'not run',
        ...blank,
        truth: null,
        note: `${check.comparison} could not be run on these results`,
      };
    }
    const truth = c.pHolm <= e.alpha;
    // The test is two-sided as preregistered; a significant result the wrong way round still meets the wording.
    const note =
      truth && c.test.b < c.test.c
        ? `significant, but in the direction opposite to the preregistered expectation (b < c)`
        : '';
    return {
      check,
      test,
      figures: `b=${c.test.b}, c=${c.test.c}, p=${c.test.p.toPrecision(3)}, Holm p=${c.pHolm.toPrecision(3)}`,
      ...blank,
      value: c.pHolm,
      truth,
      note,
    };
  }
  const row = e.rows.find((r) => r.condition === check.condition);
  const absent = (test: string): CheckResult => ({
    check,
    test,
    figures: 'absent',
    ...blank,
    truth: null,
    note: `${check.condition} is not in these results`,
  });
  switch (check.kind) {
    case 'count-zero': {
      const test = `${check.condition}: pooled ${check.count === 'falsePrunes' ? 'false-prune numerator' : 're-fetch alert count'} is 0`;
      if (!row) return absent(test);
      if (check.count === 'refetchAlerts')
        return {
          check,
          test,
          figures: `${row.refetchAlerts} re-fetch alerts`,
          ...blank,
          numerator: row.refetchAlerts,
          truth: row.refetchAlerts === 0,
        };
      const p = row.falsePruneRate;
      return {
        check,
        test,
        figures: `false prunes ${prop(p)}`,
        ...blank,
        numerator: p.numerator,
        denominator: p.denominator,
        value: p.value,
        lo: p.lo,
        hi: p.hi,
        truth: p.numerator === 0,
        note: p.denominator === 0 ? 'met vacuously: the condition removed nothing' : '',
      };
    }
    case 'all-obligations': {
      const test = `${check.condition}: obligations preserved equals obligations declared`;
      if (!row) return absent(test);
      const p = row.obligationsPreserved;
      return {
        check,
        test,
        figures: `obligations preserved ${prop(p)}`,
        ...blank,
        numerator: p.numerator,
        denominator: p.denominator,
        value: p.value,
        lo: p.lo,
        hi: p.hi,
        truth: p.numerator === p.denominator,
        note: p.denominator === 0 ? 'met vacuously: no obligation was declared' : '',
      };
    }
    case 'rate-at-least': {
      const test = `${check.condition}: pooled ${check.measure} >= ${check.threshold}`;
      if (!row) return absent(test);
      if (check.measure === 'netReduction') {
        const r = row.reduction;
        return {
          check,
          test,
          figures: `net reduction ${boot(r)}`,
          ...blank,
          value: r.estimate,
          lo: r.lo,
          hi: r.hi,
          truth: r.estimate === null ? null : r.estimate >= check.threshold,
          note: r.estimate === null ? 'no raw tokens at the prune points' : '',
        };
      }
      const p = check.measure === 'harmRate' ? row.harmRate : row.abstentionRate;
      return {
        check,
        test,
        figures: `${check.measure === 'harmRate' ? 'harm rate' : 'abstentions'} ${prop(p)}`,
        ...blank,
        numerator: p.numerator,
        denominator: p.denominator,
        value: p.value,
        lo: p.lo,
        hi: p.hi,
        truth: p.value === null ? null : p.value >= check.threshold,
        note: p.value === null ? 'no decisions (0/0)' : '',
      };
    }
    case 'bootstrap-lower-above': {
      const test = `${check.condition}: lower end of the fixture-bootstrap 95% interval of ${check.measure} > ${check.bound}`;
      if (!row) return absent(test);
      if (check.measure !== 'netReduction') {
        const p = row[check.measure];
        return {
          check,
          test,
          figures: `${check.measure === 'harmRate' ? 'harm rate' : 'obligations lost'} ${prop(p)}`,
          ...blank,
          numerator: p.numerator,
          denominator: p.denominator,
          value: p.value,
          lo: p.lo,
          hi: p.hi,
          truth: p.lo === null ? null : p.lo > check.bound,
          note: p.lo === null ? 'the bootstrap interval is undefined' : '',
        };
      }
      const r = row.reduction;
      return {
        check,
        test,
        figures: `net reduction ${boot(r)}`,
        ...blank,
        value: r.estimate,
        lo: r.lo,
        hi: r.hi,
        truth: r.lo === null ? null : r.lo > check.bound,
        note: r.lo === null ? 'the bootstrap interval is undefined' : '',
      };
    }
    case 'wilson-lower-above': {
      const test = `${check.condition}: lower end of the Wilson 95% interval of the pooled ${check.measure} > ${check.bound}`;
      if (!row) return absent(test);
      // A v1 check: its Wilson interval is computed here from the counts, since the rows carry cluster intervals.
      const p = { ...row.falsePruneRate, ...wilson(row.falsePruneRate.numerator, row.falsePruneRate.denominator) };
      return {
        check,
        test,
        figures: `false prunes ${prop(p)}`,
        ...blank,
        numerator: p.numerator,
        denominator: p.denominator,
        value: p.value,
        lo: p.lo,
        hi: p.hi,
        truth: p.lo === null ? null : p.lo > check.bound,
        note: p.lo === null ? 'the condition removed nothing (0/0 has no interval)' : '',
      };
    }
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: a safety measure's bound is read as rate-at-most reads it
    case 'bootstrap-upper-below':
      if (check.measure === 'netReduction') {
        const test = `${check.condition}: upper end of the fixture-bootstrap 95% interval of netReduction < ${check.bound}`;
        if (!row) return absent(test);
        const r = row.reduction;
        return {
          check,
          test,
          figures: `net reduction ${boot(r)}`,
          ...blank,
          value: r.estimate,
          lo: r.lo,
          hi: r.hi,
          truth: r.hi === null ? null : r.hi < check.bound,
          note: r.hi === null ? 'the bootstrap interval is undefined' : '',
        };
      }
    // falls through: the safety measures share rate-at-most's reading
    case 'rate-at-most': {
      const measure = check.measure as SafetyMeasure;
      const name = measure === 'harmRate' ? 'harm rate' : 'obligations lost';
      const test =
        check.kind === 'rate-at-most'
          ? `${check.condition}: pooled ${name} <= ${check.threshold}`
          : `${check.condition}: upper end of the fixture-cluster bootstrap 95% interval of the ${name} < ${check.bound}`;
      if (!row) return absent(test);
      const p = row[measure];
      const truth =
        check.kind === 'rate-at-most'
          ? p.value === null
            ? null
            : p.value <= check.threshold
          : p.hi === null
            ? null
            : p.hi < check.bound;
      const empty =
        measure === 'harmRate' ? 'no necessary item was in context (0/0)' : 'no obligation was declared (0/0)';
      return {
        check,
        test,
        figures: `${name} ${prop(p)}`,
        ...blank,
        numerator: p.numerator,
        denominator: p.denominator,
        value: p.value,
        lo: p.lo,
        hi: p.hi,
        truth,
        note: truth === null ? (p.value === null ? empty : 'the bootstrap interval is undefined') : '',
      };
    }
    case 'difference-at-least': {
      const test = `pooled ${check.measure} of ${check.condition} minus ${check.reference} >= ${check.threshold}`;
      const ref = e.rows.find((r) => r.condition === check.reference);
      if (!row || !ref)
        return {
          check,
          test,
          figures: 'absent',
          ...blank,
          truth: null,
          note: `${!row ? check.condition : check.reference} is not in these results`,
        };
      const a = row[check.measure];
      const b = ref[check.measure];
      const value = a.value === null || b.value === null ? null : a.value - b.value;
      return {
        check,
        test,
        figures: `${num(a.value)} (${a.numerator}/${a.denominator}) - ${num(b.value)} (${b.numerator}/${b.denominator}) = ${num(value)}`,
        ...blank,
        value,
        truth: value === null ? null : value >= check.threshold,
        note: value === null ? `a ${check.measure} is undefined (0/0)` : '',
      };
    }
    case 'difference-excludes':
    case 'difference-above':
    case 'difference-below': {
      const of = `fixture-bootstrap 95% interval of ${check.measure}(${check.condition}) - ${check.measure}(${check.reference})`;
      const test =
        check.kind === 'difference-excludes'
          ? `${of} excludes ${check.value}`
          : check.kind === 'difference-above'
            ? `${of} lies above ${check.bound}`
            : `${of} lies below ${check.bound}`;
      const d = e.differences.find(
        (x) => x.measure === check.measure && x.condition === check.condition && x.reference === check.reference,
      );
      if (!d)
        return {
          check,
          test,
          figures: 'absent',
          ...blank,
          truth: null,
          note: 'the difference could not be computed on these results',
        };
      const { lo, hi, estimate } = d.interval;
      const truth =
        lo === null || hi === null
          ? null
          : check.kind === 'difference-excludes'
            ? lo > check.value || hi < check.value
            : check.kind === 'difference-above'
              ? lo > check.bound
              : hi < check.bound;
      const below = check.kind === 'difference-excludes' && hi !== null && hi < check.value;
      const note =
        truth === null
          ? 'the bootstrap interval is undefined'
          : below
            ? `excludes ${check.value} from below: ${check.condition} is lower than ${check.reference}`
            : '';
      return { check, test, figures: `difference ${boot(d.interval)}`, ...blank, value: estimate, lo, hi, truth, note };
    }
  }
}

export function evaluateCriterion(
  form: CriterionForm,
  wording: { hypothesis: string; criterion: string },
  e: Evidence,
): CriterionResult {
  const parts = form.parts.map((part) => {
    const checks = part.checks.map((c) => evaluateCheck(c, e));
    return { subject: part.subject, checks, truth: all(checks.map((c) => c.truth)) };
  });
  const truth = all(parts.map((p) => p.truth));
  const failing = (p: PartResult) => p.checks.filter((c) => c.truth === false).map((c) => c.test);
  const open = (p: PartResult) => p.checks.filter((c) => c.truth === null).map((c) => `${c.test} (${c.note})`);
  const why =
    truth === true
      ? `every check holds for ${parts.map((p) => p.subject).join(', ')}`
      : truth === false
        ? parts
            .filter((p) => p.truth === false)
            .map((p) => `not met for ${p.subject}: ${failing(p).join('; ')}`)
            .join(' | ')
        : parts
            .filter((p) => p.truth === null)
            .map((p) => `undefined for ${p.subject}: ${open(p).join('; ')}`)
            .join(' | ');
  return { id: form.id, hypothesis: wording.hypothesis, criterion: wording.criterion, truth, why, parts };
}

export function evaluateOutcome(
  form: OutcomeForm,
  wording: { pattern: string; meaning: string },
  criteria: readonly CriterionResult[],
  e: Evidence,
): OutcomeResult {
  const base = { id: form.id, pattern: wording.pattern, meaning: wording.meaning };
  const byId = (id: string) => criteria.find((c) => c.id === id);
  const other = form.backend
    ? (e.models ?? []).find((m) => m.role === form.backend!.role && m.provider !== EMBEDDED)
    : undefined;
  if (form.backend && other) {
    const backend = other.model === null ? other.provider : `${other.provider}/${other.model}`;
    return {
      ...base,
      status: 'not evaluable',
      detail: `not the preregistered backend: ${form.backend.role} ${backend}; ${form.backend.note}`,
      criteria: form.kind === 'verdicts' ? form.when.map((w) => w.criterion) : [],
    };
  }
  switch (form.kind) {
    case 'not-evaluable':
      return { ...base, status: 'not evaluable', detail: form.reason, criteria: [] };
    case 'verdicts': {
      const truths = form.when.map(({ criterion, verdict: want }) => {
        const t = byId(criterion)?.truth ?? null;
        return t === null ? null : (t ? 'met' : 'not met') === want;
      });
      const t = all(truths);
      const detail = form.when
        .map(({ criterion }) => `${criterion} ${verdict(byId(criterion)?.truth ?? null)}`)
        .join(', ');
      return {
        ...base,
        status: t === true ? 'holds' : t === false ? 'does not hold' : 'undefined',
        detail,
        criteria: form.when.map((w) => w.criterion),
      };
    }
    case 'per-part': {
      const parts = byId(form.criterion)?.parts ?? [];
      const want = form.verdict === 'met';
      const matching = parts.filter((p) => p.truth === want).map((p) => p.subject);
      const open = parts.filter((p) => p.truth === null).map((p) => p.subject);
      const status = matching.length > 0 ? 'holds' : open.length > 0 ? 'undefined' : 'does not hold';
      const detail = `${form.criterion} ${form.verdict} for ${matching.length > 0 ? matching.join(', ') : 'none'}${open.length > 0 ? `; undefined for ${open.join(', ')}` : ''}`;
      return { ...base, status, detail, criteria: [form.criterion] };
    }
    case 'no-reduction': {
      // The report's reading of "an advantage over raw": a net token reduction whose bootstrap interval lies above 0.
      const rows = e.rows.filter((r) => r.layer !== 'control');
      const ahead = rows.filter((r) => r.reduction.lo !== null && r.reduction.lo > 0).map((r) => r.condition);
      const open = rows.filter((r) => r.reduction.lo === null).map((r) => r.condition);
      const status = ahead.length > 0 ? 'does not hold' : open.length > 0 ? 'undefined' : 'holds';
      const detail = `read as: no condition's net-reduction interval lies above 0; ${ahead.length} of ${rows.length} conditions have one${ahead.length > 0 ? ` (e.g. ${ahead.slice(0, 3).join(', ')})` : ''}`;
      return { ...base, status, detail, criteria: [] };
    }
  }
}

/** Differences between conditions the forms need a bootstrap for, each once, in form order. */
export function neededDifferences(
  forms: readonly CriterionForm[],
): { measure: RateMeasure; condition: string; reference: string }[] {
  const out: { measure: RateMeasure; condition: string; reference: string }[] = [];
  for (const f of forms) {
    for (const part of f.parts) {
      for (const c of part.checks) {
        if (c.kind !== 'difference-excludes' && c.kind !== 'difference-above' && c.kind !== 'difference-below')
          continue;
        if (!out.some((d) => d.measure === c.measure && d.condition === c.condition && d.reference === c.reference)) {
          out.push({ measure: c.measure, condition: c.condition, reference: c.reference });
        }
      }
    }
  }
  return out;
}
