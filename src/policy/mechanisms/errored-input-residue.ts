// Rung 2, the residue of failed work: once a failed call is old enough, its bulk (the result's payload, the call's
// arguments) may go while the diagnostic residue the runtime recorded stays. The residue is existing structured
// metadata, never text derived from the payload, so the operation stays pruning rather than compression.
import type { ResidueField, Status } from '../../fixture/schema.js';
import { counterpart } from '../../fixture/view.js';
import type { ConfiguredMechanism } from '../eligibility.js';
import type { Finding } from '../types.js';

export const ERRORED_INPUT_RESIDUE = 'errored-input-residue';

/** DCP's purgeErrors default, which the chapter's "failed calls older than four turns" scenario also uses. */
export const DEFAULT_AFTER_TURNS = 4;

type ErrorStatus = Extract<Status, { state: 'error' }>;

export interface ErroredInputResidueParameters {
  readonly afterTurns?: number;
}

/** What survives of an errored result: its tool, error type, message and every structured field it reported. */
export function resultResidue(status: ErrorStatus): ResidueField[] {
  const fields = Object.keys(status.fields).sort().map((name): ResidueField => `fields.${name}`);
  return ['tool', 'errorType', 'message', ...fields];
}

export function erroredInputResidue(parameters: ErroredInputResidueParameters = {}): ConfiguredMechanism {
  const afterTurns = parameters.afterTurns ?? DEFAULT_AFTER_TURNS;
  if (!Number.isInteger(afterTurns) || afterTurns < 0) throw new Error(`afterTurns must be a non-negative integer, got ${afterTurns}`);
  return {
    rule: ERRORED_INPUT_RESIDUE,
    rung: 2,
    version: '1.0.0',
    parameters: { afterTurns },
    assess(view, candidates) {
      const wanted = new Set(candidates);
      const findings: Finding[] = [];
      for (const item of view.items) {
        if (!wanted.has(item.id) || !item.tool) continue;
        const result = item.kind === 'tool-result' ? item : item.kind === 'tool-call' ? counterpart(view.items, item) : undefined;
        const status = result?.status;
        if (!result || status?.state !== 'error') continue;
        const age = view.prunePoint.turn - item.turn;
        if (age < afterTurns) continue;
        const failure = `${status.errorType}: ${status.message}`;
        // The call and its result keep the same residue: the call's error fields are read from its recorded
        // result, so either item alone still names the tool and the failure once its bulk has gone.
        const residue = resultResidue(status);
        const bulk = item.kind === 'tool-result' ? 'the payload goes' : 'the arguments go';
        const subject = item.kind === 'tool-result' ? `${item.tool.name} result errored` : `its result ${result.id} errored`;
        findings.push({
          itemId: item.id,
          outcome: 'eligible',
          reason:
            `${subject} (${failure}) ${age} turns before the prune point (at least ${afterTurns}); ` +
            `${bulk}, ${residue.join(', ')} stay`,
          residue,
        });
      }
      return findings;
    },
  };
}
