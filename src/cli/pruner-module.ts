// Loads a framework's pruner as it is: a module whose default export is a function from a message array (and
// options carrying the prune point's budget) to a message array, or a Promise of one. It runs in the --policy
// sandbox's child process (src/sandbox/), where it can read no oracle, fixture or result; prunelab renders each prune
// point in the named format, calls it there, and maps what comes back to per-item decisions (src/policy/pruner.ts).
// Its condition is a comparator named after the file.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { input, PrunelabError } from '../errors.js';
import { relativePath } from '../fixture/canonical.js';
import { CONDITION_NAME } from '../policy/definition.js';
import { prunerCondition } from '../policy/pruner.js';
import type { Condition } from '../policy/types.js';
import type { PrunerFormat } from '../pruners/types.js';
import { PolicySandbox } from '../sandbox/sandbox.js';
import { defaultPolicyOptions, type PolicyModuleOptions, type SandboxedCondition } from './policy-module.js';

export const PRUNER_SIGNATURE = '(messages, { budgetTokens }) => messages | Promise<messages>';

/** The condition's name: the file's, lower-cased, every run of other characters a dash. */
export function prunerName(path: string): string {
  return basename(path, extname(path))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export async function loadPrunerModule(
  path: string,
  format: PrunerFormat,
  cwd: string,
  taken: ReadonlySet<string>,
  options: PolicyModuleOptions = defaultPolicyOptions(cwd),
): Promise<SandboxedCondition> {
  const file = resolve(cwd, path);
  if (!existsSync(file))
    throw input(
      'PL_PRUNER_MODULE',
      path,
      'file',
      `does not exist (give a .ts or .js file whose default export is ${PRUNER_SIGNATURE})`,
    );
  const name = prunerName(path);
  if (!CONDITION_NAME.test(name))
    throw input('PL_PRUNER_MODULE', path, 'file name', 'must hold a letter or digit: the condition is named after it');
  if (taken.has(name)) throw input('PL_POLICY_NAME_TAKEN', path, name);
  const sandbox = await PolicySandbox.start(file, { shown: path, cwd, ...options });
  try {
    if (!sandbox.info.isFunction)
      throw input(
        'PL_PRUNER_MODULE',
        path,
        'default export',
        `must be a function ${PRUNER_SIGNATURE}; it is ${sandbox.info.exportType === 'object' ? 'an object' : sandbox.info.exportType}`,
      );
    const inner = prunerCondition({
      name,
      version: '0.0.0',
      description: `your pruner ${relativePath(file, cwd)}, given each prune point as ${format} messages`,
      reference: `--pruner ${relativePath(file, cwd)} --format ${format}`,
      // The module's bytes, so that a changed pruner is recorded as a changed condition.
      parameters: { sha256: createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12) },
      format,
      prune: (rendered, view) =>
        sandbox.prune(
          rendered.messages,
          {
            budgetTokens: view.prunePoint.budgetTokens,
            ...(rendered.system ? { system: rendered.system } : {}),
          },
          view,
        ),
    });
    const condition: Condition = {
      ...inner,
      decide(view) {
        try {
          return inner.decide(view);
        } catch (err) {
          // The engine would report any throw as a broken output; a refusal of what the pruner did says more.
          if (err instanceof PrunelabError) sandbox.fault ??= err;
          throw err;
        }
      },
    };
    return Object.defineProperty(condition, 'sandbox', { value: sandbox, enumerable: false }) as SandboxedCondition;
  } catch (err) {
    sandbox.close();
    throw err;
  }
}
