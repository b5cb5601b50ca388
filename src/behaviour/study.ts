// What the engine asks of the behaviour and model layers, in one place, so run.ts calls in with a few lines: the
// reader for the probes, and the predictor calls a condition relied on (its management overhead).
import type { PolicyView } from '../fixture/view.js';
import type { CallCharge } from '../providers/telemetry.js';
import type { Reader } from './reader.js';
import { structuralReader } from './structural.js';

export interface StudyModels {
  readonly reader: Reader;
  /** The predictor call this condition relied on at this prune point, if it consulted a model. */
  readonly predictorCharge?: (condition: string, view: PolicyView) => CallCharge | undefined;
}

export const EMBEDDED_STUDY: StudyModels = { reader: structuralReader() };
