// Loads a user's own pruning policy from a module so it runs beside the built-in conditions on the same fixtures.
// The module's default export is a Condition (src/policy/types.ts); it is checked here, and its output is checked
// again by the engine at every prune point.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { input } from '../errors.js';
import type { Condition } from '../policy/types.js';
import { isTiming } from '../timing/timing.js';

const TIMING_KINDS = '"immediate" | "task-boundary" | "pressure", threshold in (0, 1]';

const LAYERS = ['control', 'A', 'B', 'comparator'];

export async function loadPolicyModule(path: string, cwd: string, taken: ReadonlySet<string>): Promise<Condition> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw input('PL_POLICY_MISSING', path);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (err) {
    throw input('PL_POLICY_IMPORT', path, (err as Error).message.split('\n')[0] ?? String(err));
  }
  const c = mod.default;
  const bad = (field: string, problem: string) => input('PL_POLICY_MODULE', path, field, problem);
  if (!c || typeof c !== 'object') throw bad('(default export)', 'export default a Condition object');
  const o = c as Record<string, unknown>;
  if (typeof o['name'] !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(o['name'])) throw bad('name', 'a lower-case name of letters, digits and dashes');
  if (taken.has(o['name'])) throw input('PL_POLICY_NAME_TAKEN', path, o['name']);
  if (typeof o['layer'] !== 'string' || !LAYERS.includes(o['layer'])) throw bad('layer', `one of ${LAYERS.join(', ')}`);
  if (!(o['rung'] === null || [0, 1, 2, 3, 4].includes(o['rung'] as number))) throw bad('rung', 'null or 0..4');
  for (const field of ['version', 'description']) if (typeof o[field] !== 'string') throw bad(field, 'a string');
  for (const field of ['upperRisk', 'consultsObligations']) if (typeof o[field] !== 'boolean') throw bad(field, 'true or false');
  if (!o['parameters'] || typeof o['parameters'] !== 'object') throw bad('parameters', 'an object of numbers, strings or booleans');
  if (o['timing'] !== undefined && !isTiming(o['timing'])) throw bad('timing', `absent, or a timing: { kind: ${TIMING_KINDS} }`);
  if (typeof o['decide'] !== 'function') throw bad('decide', 'a function (view) => Eligibility[]');
  return c as Condition;
}
