// Fits the feature-reading controls' tables (src/policy/controls/) on a training corpus: for every (fixture, prune
// point, item in context) row, the control's key and the removable-alone label (./labels.ts), counted per key.
import type { Fixture, Oracle } from '../fixture/schema.js';
import { buildView, type PolicyView, type TokensOf } from '../fixture/view.js';
import type { RateTable } from '../policy/controls/rate-table.js';
import { SMOOTHING } from './classifiers.js';
import { removableAlone } from './labels.js';

export interface TrainingMeta {
  readonly control: string;
  readonly key: string;
  readonly generator: { readonly name: string; readonly version: string };
  readonly seed: number;
}

export function trainRateTable(
  corpus: readonly { fixture: Fixture; oracle: Oracle }[],
  keyOf: (view: PolicyView, index: number) => string,
  meta: TrainingMeta,
  tokens: TokensOf,
): Omit<RateTable, 'sha256'> {
  const counts = new Map<string, { rows: number; removable: number }>();
  let rows = 0;
  let removable = 0;
  for (const { fixture, oracle } of corpus) {
    for (const point of oracle.points) {
      const view = buildView(fixture, point.prunePoint, tokens);
      const labels = removableAlone(point);
      view.items.forEach((item, index) => {
        const key = keyOf(view, index);
        const c = counts.get(key) ?? { rows: 0, removable: 0 };
        const r = labels.has(item.id) ? 1 : 0;
        c.rows += 1;
        c.removable += r;
        counts.set(key, c);
        rows += 1;
        removable += r;
      });
    }
  }
  const entries = Object.fromEntries([...counts.keys()].sort().map((k) => [k, counts.get(k)!]));
  return {
    control: meta.control,
    key: meta.key,
    training: { generator: { ...meta.generator }, seed: meta.seed, count: corpus.length, rows, removable },
    smoothing: SMOOTHING,
    entries,
  };
}
