// Every user-facing message in one catalogue: `messages`, keyed by the stable PL_* code an error carries, and
// `notices` (at the end): status, success and warning lines, and the frame an error is printed in.
export const messages = {
  PL_USAGE_UNKNOWN_FLAG: (flag: string, valid: readonly string[]) =>
    `unknown option ${flag}; valid options: ${valid.join(', ')}`,
  PL_USAGE_BAD_VALUE: (flag: string, value: string, expected: string) =>
    `option ${flag} does not take "${value}": expected ${expected}`,
  PL_USAGE_MISSING_VALUE: (flag: string) => `option ${flag} needs a value`,
  PL_USAGE_NO_VALUE: (flag: string) => `option ${flag} takes no value`,
  PL_USAGE_POSITIONAL: (arg: string) => `unexpected argument "${arg}": every option is a --flag`,
  PL_USAGE_NO_CONDITIONS: () => 'option --condition names no condition',
  PL_USAGE_FILTER_NONE: (filters: readonly string[], total: number) =>
    `--filter ${filters.join(', ')} matches none of the ${total} fixtures (a filter is a fixture id glob such as "cache-*", or family:NAME)`,
  PL_USAGE_OUT_NOT_DIR: (path: string) => `option --out names ${path}, which is a file, not a folder`,
  PL_USAGE_EXPLORATORY_NEEDS_OUT: (why: string) =>
    `this run is exploratory (${why}); give --out DIR: results/ holds only the preregistered study`,
  PL_USAGE_POLICY_NEEDS_OUT: () => 'option --policy needs --out DIR: results/ holds only the built-in study',
  PL_USAGE_UNKNOWN_CONDITION: (name: string, valid: readonly string[]) =>
    `unknown condition "${name}"; valid conditions: ${valid.join(', ')}`,
  PL_USAGE_UNKNOWN_COMMAND: (name: string, valid: readonly string[]) =>
    `unknown command "${name}"; valid commands: ${valid.join(', ')}`,
  PL_FIXTURE_PATH_MISSING: (path: string) =>
    `fixture path ${path} does not exist (give a fixture .json file or a folder of them, such as fixtures/ or fixtures/canonical/)`,
  PL_FIXTURE_PATH_SPECIAL: (path: string, kind: string) =>
    `fixture path ${path} is ${kind}, not a fixture file or a folder of them; nothing was read`,
  PL_INPUT_NOT_REGULAR: (file: string, kind: string) =>
    `${file}: is ${kind}, not a regular file; nothing was read from it`,
  PL_INPUT_TOO_LARGE: (file: string, what: string, limit: number) =>
    `${file}: ${what} is over the limit of ${limit} bytes of JSON text per file`,
  PL_INPUT_UTF8: (file: string, offset: number) =>
    `${file}: not valid UTF-8 at byte ${offset} (a file is read as UTF-8 and never silently repaired)`,
  PL_INPUT_DUPLICATE_KEY: (file: string, where: string, key: string) =>
    `${file}: ${where}: key "${key}" appears twice in one object (which one is meant cannot be known)`,
  PL_INPUT_TOO_DEEP: (file: string, where: string, limit: number) =>
    `${file}: ${where}: nested deeper than the limit of ${limit} objects and arrays`,
  PL_INPUT_STRING_TOO_LONG: (file: string, where: string, length: number, limit: number) =>
    `${file}: ${where}: a string of ${length} characters, over the limit of ${limit}`,
  PL_FIXTURE_NONE: (path: string) => `no fixture files (*.json) found under ${path}`,
  PL_FIXTURE_GZIP: (file: string, detail: string) => `${file}: not a readable gzip file (${detail})`,
  PL_FIXTURE_JSON: (file: string, detail: string) => `${file}: not valid JSON (${detail})`,
  PL_FIXTURE_FIELD: (file: string, where: string, field: string, problem: string) =>
    `${file}: ${where}, field "${field}": ${problem}`,
  PL_FIXTURE_DUPLICATE_ID: (file: string, id: string, other: string) =>
    `${file}: fixture id "${id}" is also used by ${other}`,
  PL_ORACLE_MISSING: (fixtureFile: string, oracleFile: string) =>
    `${fixtureFile}: no oracle at ${oracleFile} (every scored fixture needs its oracle, kept in its own file)`,
  PL_IMPORTED_WITH_ORACLE: (fixtureFile: string, oracleFile: string) =>
    `${fixtureFile}: is an imported trace, which has no oracle, but ${oracleFile} exists; remove it (an imported trace is never scored)`,
  PL_ORACLE_CHANGED: (file: string, before: string, after: string) =>
    `${file}: the oracle changed while conditions ran (sha256 ${before} before, ${after} after)`,
  PL_PREREG_MISSING: (file: string) =>
    `no preregistration at ${file}: the default fixtures are the preregistered study and are checked against it (run with --exploratory to run anyway, stamped exploratory)`,
  PL_PREREG_INVALID: (file: string, where: string, problem: string) => `${file}: ${where}: ${problem}`,
  PL_PREREG_PIN_MISSING: (pin: string, file: string) =>
    `no pin at ${pin}: ${file} was never frozen, so no run can be checked against it (freeze it with npm run prereg:freeze, or run with --exploratory)`,
  PL_PREREG_PIN_INVALID: (pin: string, file: string) =>
    `${pin} is not a pin of ${file}: expected one line "<sha256>  ${file.split('/').pop()}" as npm run prereg:freeze writes it`,
  PL_PREREG_EDITED: (file: string, pin: string, pinned: string, actual: string) =>
    `${file} was edited after it was frozen (${pin} pins sha256 ${pinned}, the file has ${actual}); an amendment is frozen with npm run prereg:freeze`,
  PL_FROZEN_MANIFEST_MISSING: (file: string, preregistration: string) =>
    `no fixture manifest at ${file}, which ${preregistration} pins (write it with npm run fixtures:manifest, then npm run prereg:freeze)`,
  PL_FROZEN_MANIFEST_CHANGED: (file: string, preregistration: string, expected: string, actual: string) =>
    `${file} is not the manifest ${preregistration} was frozen against: expected sha256 ${expected}, actual ${actual} (a changed corpus needs a new preregistration: npm run prereg:freeze; or run with --exploratory)`,
  PL_FROZEN_MANIFEST_INVALID: (file: string, field: string, problem: string) => `${file}: field "${field}": ${problem}`,
  PL_FROZEN_INPUT_CHANGED: (file: string, kind: string, expected: string, actual: string) =>
    `${file} (${kind}): changed: expected sha256 ${expected}, actual ${actual}`,
  PL_FROZEN_INPUT_MISSING: (file: string, kind: string, expected: string) =>
    `${file} (${kind}): missing: expected sha256 ${expected}, actual (no such file)`,
  PL_FROZEN_INPUT_EXTRA: (file: string, kind: string, actual: string) =>
    `${file} (${kind}): extra: expected (not in the manifest), actual sha256 ${actual}`,
  PL_FROZEN_INPUTS_CHANGED: (manifest: string, problems: readonly string[]) =>
    `the fixtures are not the ones ${manifest} froze; nothing was run or written:\n  ${problems.join('\n  ')}\n(run with --exploratory to run anyway, stamped exploratory)`,
  PL_POLICY_OUTPUT: (condition: string, fixture: string, point: string, problem: string) =>
    `condition ${condition} on ${fixture} at ${point}: ${problem}`,
  PL_POLICY_MODULE: (file: string, field: string, problem: string) =>
    `${file}: the policy module's default export, field "${field}": ${problem}`,
  PL_POLICY_MISSING: (file: string) =>
    `policy module ${file} does not exist (give a .ts or .js file whose default export is a Mechanism or a Condition)`,
  PL_POLICY_IMPORT: (file: string, detail: string) => `${file}: the policy module could not be loaded: ${detail}`,
  PL_POLICY_NAME_TAKEN: (file: string, name: string) =>
    `${file}: condition name "${name}" is already used by a built-in or another --policy module`,
  PL_POLICY_SANDBOX_DENIED: (file: string, attempt: string, why: string) =>
    `${file}: the policy tried to ${attempt}, which its sandbox refuses: ${why}. A --policy module runs where it may read only its own folder, and may not write, start processes or threads, or load native code`,
  PL_POLICY_SANDBOX_FOLDER: (file: string, folder: string, path: string, why: string) =>
    `${file}: the module's folder ${folder} cannot be its sandbox, which grants the whole folder: ${path}: ${why}. Put the module and its helper files in a folder of their own`,
  PL_POLICY_TIMEOUT: (file: string, seconds: number, where: string) =>
    `${file}: the policy gave no answer within ${seconds} s ${where}; its process was stopped and nothing was written (allow longer with --policy-timeout SECONDS)`,
  PL_POLICY_EXITED: (file: string, how: string, where: string, stderr: string) =>
    `${file}: the policy's process ended (${how}) ${where}; nothing was written${stderr ? `. Its last output: ${stderr}` : ''}`,
  PL_PRUNER_SHAPE: (
    condition: string,
    fixture: string,
    point: string,
    format: string,
    message: number | null,
    problem: string,
  ) =>
    `pruner ${condition} on ${fixture} at ${point}: its output is not ${format} messages (${message === null ? 'the whole output' : `message ${message}`}: ${problem}); nothing was written`,
  PL_PRUNER_TRANSFORMATION: (condition: string, fixture: string, point: string, message: number, why: string) =>
    `pruner ${condition} on ${fixture} at ${point}: message ${message} of its output ${why}: that is transformation (a summary, a merged or rewritten message), not pruning, and prunelab maps only removal, placeholders and truncation back to items; nothing was written`,
  PL_PRUNER_REORDERED: (condition: string, fixture: string, point: string, message: number, why: string) =>
    `pruner ${condition} on ${fixture} at ${point}: message ${message} of its output ${why}: reordering is not pruning; nothing was written`,
  PL_PRUNER_MODULE: (file: string, field: string, problem: string) =>
    `${file}: the pruner module's ${field}: ${problem}`,
  PL_PRUNER_PACKAGE: (condition: string, detail: string) =>
    `condition ${condition}: the package it runs did not answer: ${detail}`,
  PL_USAGE_PRUNER_NEEDS_OUT: () => 'option --pruner needs --out DIR: results/ holds only the built-in study',
  PL_USAGE_PRUNER_NEEDS_FORMAT: () =>
    'option --pruner needs --format openai-chat|anthropic-messages|ai-sdk: the message format the function reads and returns',
  PL_USAGE_FORMAT_NEEDS_PRUNER: () =>
    'option --format names the message format of a --pruner module; give --pruner FILE',
  PL_TRACE_MISSING: (file: string) => `trace file ${file} does not exist`,
  PL_TRACE_JSON: (file: string, position: string, detail: string) =>
    `${file}: not valid JSON at ${position} (${detail}); nothing was written`,
  PL_TRACE_JSONL: (file: string, line: number, detail: string) =>
    `${file}: line ${line} is not valid JSON (${detail}); nothing was written`,
  PL_TRACE_SHAPE: (file: string, path: string, problem: string) =>
    `${file}: at ${path}: ${problem}; nothing was written`,
  PL_TRACE_UNKNOWN_FORMAT: (file: string, detail: string, formats: readonly string[]) =>
    `${file}: unknown trace format (${detail}); known formats: ${formats.join(', ')}; nothing was written`,
  PL_TRACE_FORMAT_MISMATCH: (file: string, given: string, detected: string) =>
    `${file}: --format ${given} was given but the file is a ${detected} record; nothing was written`,
  PL_TRACE_EMPTY: (file: string) => `${file}: the record holds no message or event the model saw; nothing was written`,
  PL_TRACE_DUPLICATE_ID: (file: string, id: string, other: string) =>
    `${file}: would be imported as "${id}", which ${other} also becomes; rename one of them`,
  PL_USAGE_IMPORT_FILES: () =>
    'import needs at least one trace FILE, e.g. npm run import -- --format swe-agent run.traj --out DIR',
  PL_USAGE_IMPORT_OUT: () => 'import needs --out DIR: where the imported fixtures go',
  PL_USAGE_CHECK_NEEDS_REAL: () =>
    'ecology --check compares results/ecology/ with a fresh regeneration, so it needs --real',
  PL_USAGE_ECOLOGY_INPUTS: () => 'ecology needs fixture folders, fixture files or trace files (or --real)',
  PL_CHECK_DIFFERS: (files: readonly string[]) =>
    `regenerated results differ from the committed ones in: ${files.join(', ')}`,
  PL_IO: (path: string, detail: string) => `could not write ${path}: ${detail}`,
  PL_RESULTS_MISSING: (path: string) =>
    `no results at ${path} (run \`npm run experiment\` first, or give --results DIR)`,
  PL_RESULTS_FIELD: (file: string, where: string, field: string, problem: string) =>
    `${file}: ${where}, field "${field}": ${problem}`,
  PL_RESULTS_UNSCORED: (file: string) =>
    `${file}: holds imported traces with no oracle, so precision, false-prune rate and coverage are undefined there; the report needs scored fixtures (for imported traces use \`npm run ecology\`)`,
  PL_RESULTS_INCONSISTENT: (file: string, problem: string) => `${file}: ${problem}`,
  PL_RESULTS_MIXED_READERS: (path: string, readers: readonly string[]) =>
    `${path}: the conditions' behaviour was answered by different readers, which the report will not put in one column (${readers.join('; ')}); report each reader's run from its own results folder`,
  PL_RESULTS_UNVERIFIED: (path: string, problems: readonly string[]) =>
    `${path} is not what its manifest.json pins, so nothing in it is read or published:\n  ${problems.join('\n  ')}\n(a results folder must be exactly what a run wrote: rerun npm run experiment with the same options to regenerate it)`,
  PL_RESULTS_FILE_CHANGED: (file: string, pinned: string, actual: string) =>
    `${file}: changed: manifest.json pins sha256 ${pinned}, the file has ${actual}`,
  PL_RESULTS_FILE_MISSING: (file: string, pinned: string) => `${file}: missing: manifest.json pins sha256 ${pinned}`,
  PL_RESULTS_FILE_UNPINNED: (file: string) =>
    `${file}: not pinned by manifest.json (every condition's summary.json and points.csv must be)`,
  PL_RESULTS_FILE_EXTRA: (file: string) => `${file}: extra: in a condition folder but not in manifest.json`,
  PL_VIEW_NO_FIXTURES: (patterns: readonly string[], results: string) =>
    `option --fixture ${patterns.join(',')} matches no fixture of ${results}/manifest.json`,
  PL_VIEW_FIXTURE_MISSING: (file: string, results: string) =>
    `${file}: missing: ${results}/manifest.json names it as an input of the run, and the viewer shows its items`,
  PL_VIEW_FIXTURE_CHANGED: (file: string, pinned: string, actual: string) =>
    `${file}: changed since the run: manifest.json pins sha256 ${pinned}, the file has ${actual}; rerun npm run experiment`,
  PL_VIEW_NO_DECISIONS: (file: string, fixture: string) =>
    `${file}: holds no decisions for fixture ${fixture}, which manifest.json lists`,
  PL_USAGE_VIEW_OUT: (out: string, why: string) => `option --out names ${out}, ${why}`,
  PL_RESULTS_DEBRIS: (file: string, pid: number) =>
    `${file}: left by a writer (process ${pid}) that is still running or was killed; a dead writer's leftovers are cleared, and a swap it committed is finished, by the next run, report or publish on this folder`,
  PL_REPORT_PREREG_MISSING: (file: string, results: string) =>
    `no preregistration at ${file}: the report reads its comparisons, outcomes, alpha, bootstrap and acceptance criteria from it (results: ${results})`,
  PL_REPORT_PREREG_CHANGED: (file: string, results: string, expected: string, actual: string) =>
    `${file} is not the preregistration ${results} was run against: expected sha256 ${expected}, actual ${actual} (the report would apply another analysis plan than the study's; restore it, or re-run the study)`,
  PL_REPORT_PREREG_UNSUPPORTED: (file: string, field: string, problem: string) =>
    `${file}: field "${field}": ${problem}`,
  PL_PUBLISH_EXPLORATORY: (path: string) =>
    `${path} is stamped exploratory (not checked against a preregistration); give --allow-exploratory to publish it labelled as exploratory`,
  PL_PUBLISH_NEEDS_OUT: () => 'publish needs --out DIR: the folder the bundle is written to',
  PL_NOTEBOOK_FAILED: (file: string, detail: string) => `${file}: the notebook failed: ${detail}`,
  PL_NOTEBOOK_KERNEL_MISSING: (tool: string, setup: string) =>
    `--kernel deno needs ${tool}, which was not found: ${setup} (see docs/notebooks.md; without --kernel the notebooks run headless with tsx)`,
  PL_USAGE_NOTEBOOK_ARGS: (arg: string) => `npm run notebooks takes [--kernel deno] [FILE.ipynb ...], not "${arg}"`,
  PL_USAGE_MODEL_NEEDS_OUT: () =>
    'a model provider or model reader needs --out DIR: results/ holds only the embedded study',
  PL_USAGE_MODEL_MISSING: (provider: string) =>
    `provider ${provider} needs --model ID (for example --model ${provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-20250514'})`,
  PL_USAGE_KEY_MISSING: (provider: string, variable: string) =>
    `provider ${provider} needs an API key in the environment variable ${variable} (not needed with --llm-cache replay)`,
  PL_USAGE_READER_NEEDS_PROVIDER: () =>
    'option --reader model needs --provider openai or anthropic (the embedded reader is --reader embedded)',
  PL_USAGE_BUDGET_UNPRICED: (label: string, file: string) =>
    `--max-cost-usd cannot be enforced for ${label}: the pricing table ${file} has no confirmed input and output rate for it`,
  PL_LLM_REPLAY_MISS: (key: string, what: string, dir: string) =>
    `--llm-cache replay: no recorded call ${key} (${what}) in ${dir}; record it first with --llm-cache record`,
  PL_USAGE_BATCH_NEEDS_RECORD: (mode: string) =>
    `--batch sends new calls and records them: it needs --llm-cache record (given: ${mode})`,
  PL_USAGE_BATCH_BUDGET: () =>
    '--batch with --max-cost-usd is not supported: a batch is paid as a whole, so a per-call budget stop cannot apply (use --estimate-cost --batch first)',
  PL_USAGE_SHARD_NEEDS_OUT: () =>
    'option --shard needs --out DIR: a shard is part of a run, never the results/ folder itself',
  PL_USAGE_SHARD: (text: string) => `option --shard: expected i/n with 1 <= i <= n (such as 2/3), got "${text}"`,
  PL_BATCH_FAILED: (id: string, status: string) =>
    `batch ${id} ended with status ${status} and no results; every call already collected stays in the cache; run again to submit the rest`,
  PL_BATCH_STATE_CORRUPT: (file: string, detail: string) =>
    `${file}: not a valid batch state (${detail}); delete it to submit a new batch`,
  PL_MERGE_NEEDS_SHARDS: () => 'merge needs at least one shard folder and --out DIR (npm run merge -- A B C --out DIR)',
  PL_MERGE_BAD_SHARD: (dir: string, problem: string) => `${dir}: not a shard of one run: ${problem}`,
  PL_MERGE_OUT_EXISTS: (dir: string) =>
    `option --out names ${dir}, which exists and is not empty; merge writes a new folder`,
  PL_LLM_CACHE_CORRUPT: (file: string, detail: string) =>
    `${file}: not a valid recorded call (${detail}); delete it to record it again`,
  PL_BUDGET_STOPPED: (detail: string, completed: number, total: number, dir: string) =>
    `stopped before passing the budget: ${detail}. ${completed} of ${total} calls of this phase completed; every finished call is stored in ${dir}. Nothing was written to --out. Run again with --resume (and a budget for the rest) to continue without repeating a paid call`,
  PL_BUDGET_STOPPED_PARTIAL: (
    detail: string,
    completed: number,
    total: number,
    dir: string,
    out: string,
    written: readonly string[],
    missing: readonly string[],
  ) =>
    `stopped before passing the budget: ${detail}. ${completed} of ${total} calls of this phase completed; every finished call is stored in ${dir}. Wrote the complete conditions (${written.join(', ')}) to ${out} as an incomplete run (see ${out}/INCOMPLETE.md); missing: ${missing.join(', ')}. Run again with --resume (and a budget for the rest) to finish without repeating a paid call`,
  PL_MODEL_CALLS_ALL_FAILED: (total: number, first: string) =>
    `every model call failed (${total} of ${total}); the provider error: ${first}. Nothing was written to --out`,
  PL_GEN_OUT_NOT_CORPUS: (path: string) =>
    `option --out names ${path}, which exists and is not a generated corpus (no generated README.md); refusing to replace it`,
  PL_GEN_OUT_IS_FILE: (path: string) => `option --out names ${path}, which is a file, not a folder`,
  PL_MANIFEST_MISSING: (file: string) => `no fixture manifest at ${file} (write one with npm run fixtures:generate)`,
  PL_MANIFEST_INVALID: (file: string, detail: string) => `${file}: not a valid fixture manifest (${detail})`,
  PL_VERIFY_PROBLEMS: (manifest: string, problems: readonly string[]) =>
    `${manifest}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`,
  PL_VERIFY_CHANGED: (file: string, recorded: string, actual: string) =>
    `${file} changed: the manifest records sha256 ${recorded}, the file has ${actual}`,
  PL_VERIFY_MISSING: (file: string, recorded: string) =>
    `${file} is missing: the manifest records sha256 ${recorded}, no such file`,
  PL_VERIFY_EXTRA: (file: string, actual: string) => `${file} is not in the manifest (sha256 ${actual})`,
  PL_VERIFY_GROUND_TRUTH: (file: string, expected: string, actual: string) =>
    `${file} differs from the generator's ground truth: regenerating gives sha256 ${expected}, the file has ${actual}`,
  PL_VERIFY_NOT_GENERATED: (file: string) =>
    `${file} is in the generated corpus folder but the generator does not produce it`,
  PL_CONTROL_TABLE: (file: string, problem: string) => `${file}: not a usable control table: ${problem}`,
  PL_USAGE_TRAIN_SEED: (seed: number) =>
    `--seed ${seed} is the study corpus's seed: the controls are trained on another corpus so the study's oracles are never read; give another --seed`,
  PL_AUDIT_NO_ORACLES: (path: string) =>
    `${path} holds no fixture with an oracle: the leak audit needs scored fixtures (an imported trace has no label to leak)`,
  PL_AUDIT_LEAKAGE: (features: readonly string[], maxAuc: number) =>
    `the corpus leaks its labels: ${features.join(', ')} predict${features.length === 1 ? 's' : ''} the oracle's label above AUC ${maxAuc} though a policy must not rely on ${features.length === 1 ? 'it' : 'them'}`,
  PL_ORACLE_NOT_NECESSARY: (file: string, where: string, item: string, field: string) =>
    `${file}: ${where}, item "${item}", field "${field}": labelled necessary (in no removable, partial or redundant-group list), but removing it alone, with everything else present, loses no obligation, visible or downstream; label it removable, put it in a redundant group with its copies, or declare why it stays (pinned, a protected tool, a pending step or open work unit naming it, or keptBecause)`,
  PL_ORACLE_LABEL_LOSES: (
    file: string,
    where: string,
    item: string,
    field: string,
    label: 'removable' | 'partial' | 'a redundant copy',
    lost: readonly LostObligation[],
  ) =>
    `${file}: ${where}, item "${item}", field "${field}": labelled ${label}, but removing it alone${label === 'partial' ? ' (keeping its residue)' : ''} loses ${lost.map(lostText).join('; ')}`,
  PL_ORACLE_GROUP_UNNEEDED: (file: string, where: string, field: string, items: readonly string[]) =>
    `${file}: ${where}, items ${items.map((i) => `"${i}"`).join(', ')}, field "${field}": removing every copy of the group at once loses no obligation, so its copies are removable, not a group`,
} as const;

export type MessageCode = keyof typeof messages;

/** An obligation a counterfactual removal would lose, and what went missing. */
export interface LostObligation {
  readonly id: string;
  readonly visibility: 'visible' | 'downstream';
  readonly missing: readonly string[];
}

function lostText(l: LostObligation): string {
  return `${l.visibility} obligation ${l.id} (missing ${l.missing.join(' | ')})`;
}

/** Phrases the sandbox's errors are made of: what a policy tried, and why that is refused. */
export const sandboxWords = {
  attempt: {
    read: (path: string) => `read ${path}`,
    import: (path: string) => `import ${path}`,
    write: (path: string) => `write ${path}`,
    spawn: () => 'start a child process',
    thread: () => 'start a worker thread',
    addon: () => 'load a native addon',
    network: (via: string) => `use the network (${via})`,
    other: (what: string) => `use ${what}`,
  },
  why: {
    oracle: 'it is an oracle, the labels every policy is scored against',
    fixtures: 'it is a fixture file, which holds the downstream obligations hidden from every policy',
    results: 'it holds results, which are scored against the oracle',
    labelCode: "it is prunelab's corpus generator or oracle code, which can rebuild the labels",
    outside: "it is outside the module's own folder",
    effect: 'a policy is a pure function of the view it is given',
  },
  linkOut: (target: string | null) =>
    target === null
      ? 'a symbolic link that leads nowhere'
      : `a symbolic link out of the folder, to ${target} (the permission model follows links)`,
  tooLarge: (limit: number) => `holds more than ${limit} files and folders`,
  whileLoading: () => 'while loading',
  atPoint: (fixture: string, point: string) => `on ${fixture} at ${point}`,
  signal: (signal: string) => `killed by ${signal}`,
  exitCode: (code: number | null) => `exit code ${code ?? 'unknown'}`,
} as const;

/** Phrases a --policy module's load check is made of: what each field of either form must be. */
export const policyWords = {
  forms:
    'export default a Mechanism (rule, rung, version, assess) or a Condition (name, layer, rung, version, description, upperRisk, consultsObligations, parameters, decide)',
  condition: {
    name: 'a lower-case name of letters, digits and dashes',
    layer: 'one of control, A, B, comparator',
    rung: 'null or 0..4',
    version: 'a string',
    description: 'a string',
    upperRisk: 'true or false',
    consultsObligations: 'true or false',
    parameters: 'an object of numbers, strings or booleans',
    reference: 'absent, or a string naming what it reproduces',
    order: 'absent, or the names of its rules in order',
    timing:
      'absent, or a timing: { kind: "immediate" | "task-boundary" | "pressure", threshold in (0, 1] | "cache-safe", profile }',
  } as Record<string, string>,
  mechanism: {
    rule: 'a lower-case name of letters, digits and dashes (the condition is named after it)',
    rung: '0..4, the evidence rung it stands on',
    version: 'a string',
    description: 'absent, or a one-line string',
    parameters: 'absent, or an object of numbers, strings or booleans',
  } as Record<string, string>,
  mechanismDescription: (rule: string) => `your mechanism ${rule}, behind the protection and regenerability gates`,
  badFinding: (index: number, item: string, field: string, problem: string) =>
    `assess() returned finding ${index}${item ? ` (item "${item}")` : ''}, field "${field}": ${problem}`,
  notFindings: () =>
    'assess() must return an array of findings ({ itemId, outcome: "eligible" | "abstain" | "keep", reason })',
  findingTwice: (item: string) => `assess() returned two findings for item "${item}"`,
} as const;

/** What a progress line reports (src/cli/progress.ts). */
export interface ProgressFigures {
  readonly done: number;
  readonly total: number;
  /** Conditions run on each unit; 0 leaves them out of the line. */
  readonly conditions: number;
  readonly elapsedMs: number;
  /** Null until something is done. */
  readonly etaMs: number | null;
  /** Model calls sent and dollars spent so far; null when the run calls no model. */
  readonly calls: number | null;
  readonly spentUsd: number | null;
}

/** 0:07, 2:05, 1:02:05. */
function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

function progressText(unit: string, p: ProgressFigures): string {
  const share = p.total > 0 ? Math.floor((p.done * 100) / p.total) : 100;
  return [
    `${unit} ${p.done}/${p.total} (${share}%)`,
    ...(p.conditions > 0 ? [`${p.conditions} condition${p.conditions === 1 ? '' : 's'}`] : []),
    `elapsed ${clock(p.elapsedMs)}`,
    `ETA ${p.etaMs === null ? '–' : clock(p.etaMs)}`,
    ...(p.calls === null ? [] : [`model calls ${p.calls}`, `spent $${(p.spentUsd ?? 0).toFixed(4)}`]),
  ].join(', ');
}

// Informational lines: what a command prints when it works or wants a word heard (status, success, warnings). No
// error carries them, so they have no PL_* code and live apart from `messages`, whose keys are the codes errors use.
// Each renders the whole line, newline included, exactly as the command prints it.
export const notices = {
  errorLine: (message: string, code: string) => `prunelab: ${message} [${code}]\n`,
  unexpectedFailure: (detail: string) => `prunelab: unexpected failure: ${detail}\n`,
  noRedactWarning: () =>
    'prunelab: warning: --no-redact: credential-looking strings are written as recorded; do not share or commit this output\n',
  exploratoryRun: (why: string) =>
    `EXPLORATORY (${why}): every output is stamped exploratory and cannot stand for the preregistered study\n\n`,
  exploratoryConditions: (names: readonly string[]) =>
    `exploratory conditions (not named by the preregistration, stamped alone; no verdict reads them): ${names.join(', ')}\n\n`,
  modelCalls: (sent: number, cached: number) => `model calls: ${sent} sent, ${cached} served from the cache\n`,
  progressLine: (label: string, unit: string, p: ProgressFigures) => `${label}: ${progressText(unit, p)}\n`,
  progressBar: (label: string, unit: string, p: ProgressFigures, bar: string) =>
    `${label} ${bar} ${progressText(unit, p)}`,
  stepLine: (label: string, step: number, steps: number, what: string, elapsedMs: number) =>
    `${label}: step ${step}/${steps} (${what}), elapsed ${clock(elapsedMs)}\n`,
  stepsDone: (label: string, steps: number, elapsedMs: number) =>
    `${label}: ${steps}/${steps} steps done, elapsed ${clock(elapsedMs)}\n`,
  batchSubmitted: (role: string, id: string, requests: number) =>
    `batch ${id} (${role}): submitted ${requests} requests; its id is in the cache folder, so a restarted run resumes it\n`,
  batchResumed: (role: string, id: string, requests: number) =>
    `batch ${id} (${role}): resuming, ${requests} requests not yet collected\n`,
  batchProgress: (role: string, id: string, status: string, done: number, failed: number, total: number) =>
    `batch ${id} (${role}): ${status}, ${done} of ${total} done, ${failed} failed\n`,
  batchCollected: (role: string, id: string, ok: number, failed: number) =>
    `batch ${id} (${role}): collected ${ok} responses into the cache${failed > 0 ? `, ${failed} failed (sent again one by one)` : ''}\n`,
  shardsMerged: (out: string, shards: number, conditions: number, fixtures: number) =>
    `merged ${shards} shards into ${out} (${conditions} conditions, ${fixtures} fixtures)\n`,
  modelCallsFailed: (failed: number, total: number, first: string) =>
    `model calls: ${failed} of ${total} failed (first: ${first}); every condition that needed one ABSTAINs where it would have used it\n`,
  experimentCheckPassed: (dir: string, files: number, conditions: number, fixtures: number, pinnedOnly: number) =>
    `${dir} matches a fresh regeneration (${files} files, ${conditions} conditions, ${fixtures} fixtures${pinnedOnly > 0 ? `; ${pinnedOnly} compressed logs not present here, verified against their pinned sha256` : ''})\n`,
  fixturesGenerated: (
    count: number,
    out: string,
    fixtureBytes: number,
    oracleBytes: number,
    manifest: string,
    fixtures: number,
    oracles: number,
  ) =>
    `wrote ${count} fixtures and oracles to ${out} (${(fixtureBytes / 1e6).toFixed(1)} MB compressed fixtures, ${(oracleBytes / 1e6).toFixed(1)} MB oracles) and ${manifest} (${fixtures} fixtures, ${oracles} oracles)\n`,
  fixturesVerified: (
    manifest: string,
    fixtures: number,
    oracles: number,
    generated: { count: number; seed: number } | null,
  ) =>
    `${manifest}: ${fixtures} fixtures and ${oracles} oracles match their hashes and the schema${generated ? `; the ${generated.count} generated fixtures equal a regeneration from seed ${generated.seed}` : ''}\n`,
  fixtureManifestWritten: (file: string, fixtures: number, oracles: number, sha: string) =>
    `wrote ${file}: ${fixtures} fixtures, ${oracles} oracles, sha256 ${sha}\n`,
  preregistrationPinned: (file: string, manifest: string, sha: string) =>
    `${file} already pins ${manifest} (sha256 ${sha})\n`,
  preregistrationRepinned: (file: string, manifest: string, previous: string, pinned: string) =>
    `${file} now pins ${manifest}: sha256 ${previous} -> ${pinned}; rerun npm run experiment\n`,
  preregistrationFrozen: (pin: string, file: string, previous: string | null, pinned: string) =>
    previous === pinned
      ? `${pin} already pins ${file} (sha256 ${pinned})\n`
      : `${pin} now pins ${file}: sha256 ${previous ?? '(none)'} -> ${pinned}; commit both files\n`,
  baseRateWritten: (dir: string, rows: number) => `wrote ${dir}/base-rate.md and base-rate.csv (${rows} rows)\n`,
  reportWritten: (
    tables: number,
    tablesDir: string,
    charts: number,
    chartsDir: string,
    fixtures: number,
    conditions: number,
  ) =>
    `wrote ${tables} tables to ${tablesDir}/ and ${charts} charts to ${chartsDir}/ (${fixtures} fixtures, ${conditions} conditions)\n`,
  viewWritten: (out: string, fixtures: number, conditions: number, leftOut: number) =>
    `wrote the viewer to ${out}/ (${fixtures} fixture pages, ${conditions} conditions${leftOut > 0 ? `; ${leftOut} fixtures have no page: name them with --fixture` : ''}); open ${out}/index.html in a browser\n`,
  bundleWritten: (out: string, files: number) => `wrote the bundle to ${out} (${files} files)\n`,
  ecologyWritten: (report: string, out: string, files: readonly string[]) =>
    `${report}\nwritten to ${out}/ (${files.join(', ')})\n`,
  ecologyCheckPassed: (dir: string, files: number, traces: number, conditions: number) =>
    `${dir} matches a fresh regeneration (${files} files, ${traces} traces, ${conditions} conditions)\n`,
  ecologyRealWritten: (report: string, out: string, files: number, sessions: number, from: string) =>
    `${report}\nwrote ${out}/ (${files} files from ${sessions} sessions in ${from}/)\n`,
  generatedWritten: (files: readonly string[], readme: string) =>
    `wrote ${files.join(', ')} and the generated tables of ${readme}\n`,
  notebookRan: (file: string) => `ran ${file}\n`,
  controlsTrained: (files: readonly string[], seed: number, fixtures: number) =>
    `wrote ${files.join(' and ')}, fitted on ${fixtures} generated fixtures of seed ${seed}\n`,
  leakageWritten: (table: string, dir: string, files: readonly string[]) =>
    `${table}\nwritten to ${dir}/ (${files.join(', ')})\n`,
  inputSkipped: (file: string, why: string) => `prunelab: skipped ${file}: ${why}\n`,
  debrisCleared: (dir: string, finished: readonly string[], removed: readonly string[]) =>
    `${dir}: cleared what killed runs left: ${[
      ...finished.map((f) => `finished the committed swap in ${f}`),
      ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : []),
    ].join('; ')}\n`,
} as const;
