// The table a framework's engineer reads first: "your framework's default on our fixtures". Every comparator in the
// results (the built-in reproductions of published defaults, the package-backed ones and a --policy or --pruner
// module declared as a comparator) with the study's measures, each row stamped preregistered or exploratory, and its
// paired comparison with keeping everything (the registry's baseline) and with the proposed ladder, as the
// secondary comparisons computed them from the registry.
import { builtInRegistry } from '../policy/registry.js';
import type { Analysis, ConditionRow, SecondaryComparisonRow } from './analysis.js';
import type { BootstrapResult } from './stats.js';
import { fixed, formatInterval, formatProportion, propColumns, type ReportTable } from './tables.js';
import { from } from 'arquero';

export const FRAMEWORK_DEFAULTS_TABLE = 'framework-defaults';

export const FRAMEWORK_DEFAULTS_TITLE =
  "Your framework's default on our fixtures: every comparator with the study's measures";

/** How a row's figures may be read: as the preregistered study, or as an exploratory addition to it. */
export function stampOf(a: Pick<Analysis, 'exploratory'>, r: Pick<ConditionRow, 'exploratory'>): string {
  return a.exploratory || r.exploratory ? 'exploratory' : 'preregistered';
}

function difference(name: string, d: BootstrapResult | undefined): Record<string, string> {
  return {
    [name]: fixed(d?.estimate ?? null, 6),
    [`${name}_lo`]: fixed(d?.lo ?? null, 6),
    [`${name}_hi`]: fixed(d?.hi ?? null, 6),
  };
}

export function frameworkDefaultsTable(a: Analysis): ReportTable {
  const baseline = builtInRegistry().baseline;
  const rows = a.rows.filter((r) => r.layer === 'comparator');
  const paired = (r: ConditionRow, reference: string | null): SecondaryComparisonRow | undefined =>
    reference === null ? undefined : a.secondary.find((s) => s.candidate === r.condition && s.reference === reference);
  const data = rows.map((r) => {
    const vsBaseline = paired(r, baseline);
    const vsProposed = paired(r, a.proposed);
    return {
      condition: r.condition,
      stamp: stampOf(a, r),
      fixtures: r.fixtures,
      prune_points: r.prunePoints,
      prunes: r.prunes,
      ...propColumns('harm_rate', r.harmRate),
      ...propColumns('false_prune_rate', r.falsePruneRate),
      ...propColumns('base_rate', r.baseRate),
      token_reduction: fixed(r.reduction.estimate, 6),
      token_reduction_lo: fixed(r.reduction.lo, 6),
      token_reduction_hi: fixed(r.reduction.hi, 6),
      ...propColumns('abstention_rate', r.abstentionRate),
      ...propColumns('defer_rate', r.deferRate),
      ...difference(`harm_vs_${baseline}`, vsBaseline?.harmDifference),
      ...difference(`reduction_vs_${baseline}`, vsBaseline?.reductionDifference),
      ...difference('harm_vs_proposed', vsProposed?.harmDifference),
      ...difference('reduction_vs_proposed', vsProposed?.reductionDifference),
    };
  });
  const view = rows.map((r) => {
    const vsBaseline = paired(r, baseline);
    const vsProposed = paired(r, a.proposed);
    return {
      comparator: r.condition,
      stamp: stampOf(a, r),
      'harm rate': formatProportion(r.harmRate),
      'false-prune rate': formatProportion(r.falsePruneRate),
      'base rate': formatProportion(r.baseRate),
      'token reduction': formatInterval(r.reduction),
      abstain: formatProportion(r.abstentionRate),
      defer: formatProportion(r.deferRate),
      [`Δ harm vs ${baseline}`]: vsBaseline ? formatInterval(vsBaseline.harmDifference) : '–',
      [`Δ harm vs ${a.proposed ?? 'proposed'}`]: vsProposed ? formatInterval(vsProposed.harmDifference) : '–',
      [`Δ reduction vs ${a.proposed ?? 'proposed'}`]: vsProposed ? formatInterval(vsProposed.reductionDifference) : '–',
    };
  });
  const notes = [
    'One row per comparator in these results: the built-in reproductions of published defaults (each cites its source: `npm run experiment -- --list`), package-backed ones, and any --policy or --pruner module that declares itself a comparator. "-scaled" rows run the published token thresholds as the same share of a 200,000-token window applied to the prune point\'s budget (docs/comparators.md).',
    'Stamp: preregistered when the preregistration names the condition and the run is the preregistered study; exploratory otherwise. No verdict reads an exploratory row.',
    'Harm rate: necessary units removed over necessary units (each fixture and unit once), with its 95% fixture-cluster bootstrap interval; numerator and denominator are in the CSV. Read the false-prune rate beside the base rate (the removable share: what pruning everything would reach as precision). Token reduction: 1 - final/raw. Abstain and defer: shares of all decisions.',
    `Δ columns: the comparator minus the reference on the same fixtures (paired bootstrap over fixtures), from the registry-derived secondary comparisons: against ${baseline} (keeping everything) and against ${a.proposed ?? 'the proposed condition'}.`,
  ];
  return { name: FRAMEWORK_DEFAULTS_TABLE, title: FRAMEWORK_DEFAULTS_TITLE, notes, data: from(data), view: from(view) };
}
