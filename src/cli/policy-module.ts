// Loads a user's own pruning policy from a module so it runs beside the built-in conditions on the same fixtures.
// The module's default export is either a Mechanism (src/policy/types.ts: rule, rung, version, assess), which this
// wraps behind the same protection and regenerability gates as a built-in Layer A mechanism, or a whole Condition
// (decide). It runs sandboxed (src/sandbox/): in its own process, where no oracle, fixture or result can be read.
// What it exports is checked here against a schema of either form; a Mechanism's findings are checked at every call
// (here) and a Condition's eligibilities by the engine at every prune point.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { input } from '../errors.js';
import type { PolicyView } from '../fixture/view.js';
import { policyWords } from '../messages.js';
import { CONDITION_NAME } from '../policy/definition.js';
import type { ConfiguredMechanism } from '../policy/eligibility.js';
import { single } from '../policy/single.js';
import { FindingSchema, RungSchema, type Condition, type Eligibility, type Finding } from '../policy/types.js';
import { PolicySandbox, type OffLimits } from '../sandbox/sandbox.js';
import { isTiming, type Timing } from '../timing/timing.js';

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

const Parameters = z.record(z.string(), z.union([z.number(), z.string(), z.boolean()]));

/** The data of a Condition export (its `decide` is checked apart: functions do not cross from the sandbox). */
export const ConditionExport = z.object({
  name: z.string().regex(CONDITION_NAME),
  layer: z.enum(['control', 'A', 'B', 'comparator']),
  rung: RungSchema.nullable(),
  version: z.string(),
  description: z.string(),
  upperRisk: z.boolean(),
  consultsObligations: z.boolean(),
  parameters: Parameters,
  reference: z.string().optional(),
  order: z.array(z.string()).optional(),
  timing: z.custom<Timing>(isTiming).optional(),
});

/** The data of a Mechanism export: what the gate-wrapped condition is named, rung and versioned after. */
export const MechanismExport = z.object({
  rule: z.string().regex(CONDITION_NAME),
  rung: RungSchema,
  version: z.string(),
  description: z
    .string()
    .regex(/^[^\n]+$/)
    .optional(),
  parameters: Parameters.optional(),
});

export async function loadPolicyModule(
  path: string,
  cwd: string,
  taken: ReadonlySet<string>,
  options = defaultPolicyOptions(cwd),
): Promise<SandboxedCondition> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw input('PL_POLICY_MISSING', path);
  const sandbox = await PolicySandbox.start(file, {
    shown: path,
    cwd,
    offLimits: options.offLimits,
    timeoutMs: options.timeoutMs,
  });
  try {
    const { exported, decideIsFunction, assessIsFunction } = sandbox.info;
    if (!exported || (!decideIsFunction && !assessIsFunction))
      throw input('PL_POLICY_MODULE', path, '(default export)', policyWords.forms);
    // A module with `decide` is a Condition (a helper beside it may be called anything, `assess` included).
    const condition = decideIsFunction ? asCondition(path, exported, sandbox) : asMechanism(path, exported, sandbox);
    if (taken.has(condition.name)) throw input('PL_POLICY_NAME_TAKEN', path, condition.name);
    return Object.defineProperty(condition, 'sandbox', { value: sandbox, enumerable: false }) as SandboxedCondition;
  } catch (err) {
    sandbox.close();
    throw err;
  }
}

function checked<T>(
  path: string,
  schema: z.ZodType<T>,
  exported: Record<string, unknown>,
  words: Record<string, string>,
): T {
  const parsed = schema.safeParse(exported);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? '(default export)');
  throw input('PL_POLICY_MODULE', path, field, words[field] ?? issue.message);
}

function asCondition(path: string, exported: Record<string, unknown>, sandbox: PolicySandbox): Condition {
  const info = checked(path, ConditionExport, exported, policyWords.condition);
  // Only the fields it declared: an absent optional field stays absent, as in a built-in's record.
  const declared = Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) as typeof info;
  return { ...declared, decide: (view: PolicyView) => sandbox.decide(view) as readonly Eligibility[] };
}

/** The Mechanism behind the gates, as a built-in Layer A mechanism: named after its rule, upper-risk at rung 4. */
function asMechanism(path: string, exported: Record<string, unknown>, sandbox: PolicySandbox): Condition {
  const info = checked(path, MechanismExport, exported, policyWords.mechanism);
  const mechanism: ConfiguredMechanism = {
    rule: info.rule,
    rung: info.rung,
    version: info.version,
    parameters: info.parameters ?? {},
    assess: (view, candidates) => checkFindings(sandbox.assess(view, candidates)),
  };
  return single(mechanism, {
    gate: true,
    upperRisk: info.rung === 4,
    description: info.description ?? policyWords.mechanismDescription(info.rule),
  });
}

/** A mechanism's findings, checked before the gate reads them; a broken one fails the run as a throwing decide does. */
export function checkFindings(out: unknown): Finding[] {
  if (!Array.isArray(out)) throw new Error(policyWords.notFindings());
  const seen = new Set<string>();
  return out.map((raw: unknown, i) => {
    const parsed = FindingSchema.safeParse(raw);
    const item =
      typeof (raw as { itemId?: unknown } | null)?.itemId === 'string' ? (raw as { itemId: string }).itemId : '';
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field =
        issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || '(the whole finding)';
      throw new Error(policyWords.badFinding(i, item, field, issue.message));
    }
    if (seen.has(parsed.data.itemId)) throw new Error(policyWords.findingTwice(parsed.data.itemId));
    seen.add(parsed.data.itemId);
    return parsed.data;
  });
}
