// The family registry: one factory per scenario family, in the agreed order.
import type { FamilyFactory, FamilyName } from '../family.js';
import { completedSubtask } from './completed-subtask.js';
import { dormantDependency } from './dormant-dependency.js';
import { failedCallBulkyInput } from './failed-call-bulky-input.js';
import { immutableDuplicateRead } from './immutable-duplicate-read.js';
import { largeReconstructibleRead } from './large-reconstructible-read.js';
import { mutableReread } from './mutable-reread.js';
import { oneTimeSecret } from './one-time-secret.js';
import { rejectedHypothesis } from './rejected-hypothesis.js';
import { statedOnceConstraint } from './stated-once-constraint.js';
import { supersededRun } from './superseded-run.js';
import { transientState } from './transient-state.js';

export const FAMILIES: Readonly<Record<FamilyName, FamilyFactory>> = {
  'immutable-duplicate-read': immutableDuplicateRead,
  'mutable-reread': mutableReread,
  'failed-call-bulky-input': failedCallBulkyInput,
  'superseded-run': supersededRun,
  'completed-subtask': completedSubtask,
  'rejected-hypothesis': rejectedHypothesis,
  'one-time-secret': oneTimeSecret,
  'stated-once-constraint': statedOnceConstraint,
  'transient-state': transientState,
  'dormant-dependency': dormantDependency,
  'large-reconstructible-read': largeReconstructibleRead,
};
