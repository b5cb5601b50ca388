// The package's policy entry (`import { resolveInView, type Mechanism } from 'prunelab/policy'`): the interface a
// --policy module is written against and the view helpers it may call, and nothing that reaches the oracle, so the
// sandbox that compiles a policy admits it (the whole library, `prunelab`, also loads fixtures with their oracles).
export type { Condition, ConditionInfo, Eligibility, Finding, Layer, Mechanism, Rung, SweepOf } from './types.js';
export { EligibilitySchema, FindingSchema } from './types.js';
export {
  blocksOf,
  effectsOf,
  repetitionOf,
  resolveInView,
  type PolicyView,
  type PrunePointHeader,
  type StoreSnapshot,
  type ViewItem,
} from '../fixture/view.js';
export { observationKey, sameObservation } from './identity.js';
