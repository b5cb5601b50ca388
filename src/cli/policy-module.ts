// Loads a user's own pruning policy from a module so it runs beside the built-in conditions on the same fixtures.
// The module's default export is a Condition (src/policy/types.ts). It runs sandboxed (src/sandbox/): in its own
// process, where no oracle, fixture or result can be read. What it exports is checked here, and its output is
// checked again by the engine at every prune point.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { input } from '../errors.js';
import type { PolicyView } from '../fixture/view.js';
import type { Condition, Eligibility } from '../policy/types.js';
import { PolicySandbox, type OffLimits } from '../sandbox/sandbox.js';
import { isTiming } from '../timing/timing.js';

const TIMING_KINDS = '"immediate" | "task-boundary" | "pressure", threshold in (0, 1] | "cache-safe", profile';

const LAYERS = ['control', 'A', 'B', 'comparator'];

export interface PolicyModuleOptions {
  readonly offLimits: OffLimits;
  readonly timeoutMs: number;
}

/** The default for a caller that names nothing: the project's fixtures/ and results/ under `cwd`, 60 s. */
export const defaultPolicyOptions = (cwd: string): PolicyModuleOptions => ({
  offLimits: { fixtures: [resolve(cwd, 'fixtures')], results: [resolve(cwd, 'results')] },
  timeoutMs: 60_000,
});

/**
 * A Condition whose `decide` is answered by the sandboxed module. `sandbox` (not enumerable, so never written out
 * with the condition) holds the first failure it saw, which the engine would report only as a broken output, and
 * stops the module's process when closed.
 */
export type SandboxedCondition = Condition & { readonly sandbox: PolicySandbox };

export async function loadPolicyModule(path: string, cwd: string, taken: ReadonlySet<string>, options = defaultPolicyOptions(cwd)): Promise<SandboxedCondition> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw input('PL_POLICY_MISSING', path);
  const sandbox = await PolicySandbox.start(file, { shown: path, cwd, offLimits: options.offLimits, timeoutMs: options.timeoutMs });
  try {
    const info = checkExport(path, sandbox.info.exported, sandbox.info.decideIsFunction, taken);
    const condition: Condition = { ...info, decide: (view: PolicyView) => sandbox.decide(view) as readonly Eligibility[] };
    return Object.defineProperty(condition, 'sandbox', { value: sandbox, enumerable: false }) as SandboxedCondition;
  } catch (err) {
    sandbox.close();
    throw err;
  }
}

function checkExport(path: string, o: Record<string, unknown> | null, decideIsFunction: boolean, taken: ReadonlySet<string>): Omit<Condition, 'decide'> {
  const bad = (field: string, problem: string) => input('PL_POLICY_MODULE', path, field, problem);
  if (!o) throw bad('(default export)', 'export default a Condition object');
  if (typeof o['name'] !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(o['name'])) throw bad('name', 'a lower-case name of letters, digits and dashes');
  if (taken.has(o['name'])) throw input('PL_POLICY_NAME_TAKEN', path, o['name']);
  if (typeof o['layer'] !== 'string' || !LAYERS.includes(o['layer'])) throw bad('layer', `one of ${LAYERS.join(', ')}`);
  if (!(o['rung'] === null || [0, 1, 2, 3, 4].includes(o['rung'] as number))) throw bad('rung', 'null or 0..4');
  for (const field of ['version', 'description']) if (typeof o[field] !== 'string') throw bad(field, 'a string');
  for (const field of ['upperRisk', 'consultsObligations']) if (typeof o[field] !== 'boolean') throw bad(field, 'true or false');
  if (!o['parameters'] || typeof o['parameters'] !== 'object') throw bad('parameters', 'an object of numbers, strings or booleans');
  if (o['timing'] !== undefined && !isTiming(o['timing'])) throw bad('timing', `absent, or a timing: { kind: ${TIMING_KINDS} }`);
  if (!decideIsFunction) throw bad('decide', 'a function (view) => Eligibility[]');
  return o as unknown as Omit<Condition, 'decide'>;
}
