// Every user-facing message in one catalogue, keyed by the stable code the error carries.
export const messages = {
  PL_USAGE_UNKNOWN_FLAG: (flag: string, valid: readonly string[]) =>
    `unknown option ${flag}; valid options: ${valid.join(', ')}`,
  PL_USAGE_BAD_VALUE: (flag: string, value: string, expected: string) =>
    `option ${flag} does not take "${value}": expected ${expected}`,
  PL_USAGE_MISSING_VALUE: (flag: string) => `option ${flag} needs a value`,
  PL_USAGE_NO_VALUE: (flag: string) => `option ${flag} takes no value`,
  PL_USAGE_POSITIONAL: (arg: string) => `unexpected argument "${arg}": every option is a --flag`,
  PL_USAGE_NO_CONDITIONS: () => 'option --condition names no condition',
  PL_USAGE_OUT_NOT_DIR: (path: string) => `option --out names ${path}, which is a file, not a folder`,
  PL_USAGE_POLICY_NEEDS_OUT: () => 'option --policy needs --out DIR: results/ holds only the built-in study',
  PL_USAGE_UNKNOWN_CONDITION: (name: string, valid: readonly string[]) =>
    `unknown condition "${name}"; valid conditions: ${valid.join(', ')}`,
  PL_USAGE_UNKNOWN_COMMAND: (name: string, valid: readonly string[]) =>
    `unknown command "${name}"; valid commands: ${valid.join(', ')}`,
  PL_FIXTURE_PATH_MISSING: (path: string) => `fixture path ${path} does not exist (give a fixture .json file or a folder of them, such as fixtures/ or fixtures/canonical/)`,
  PL_FIXTURE_NONE: (path: string) => `no fixture files (*.json) found under ${path}`,
  PL_FIXTURE_GZIP: (file: string, detail: string) => `${file}: not a readable gzip file (${detail})`,
  PL_FIXTURE_JSON: (file: string, detail: string) => `${file}: not valid JSON (${detail})`,
  PL_FIXTURE_FIELD: (file: string, where: string, field: string, problem: string) =>
    `${file}: ${where}, field "${field}": ${problem}`,
  PL_FIXTURE_DUPLICATE_ID: (file: string, id: string, other: string) =>
    `${file}: fixture id "${id}" is also used by ${other}`,
  PL_ORACLE_MISSING: (fixtureFile: string, oracleFile: string) =>
    `${fixtureFile}: no oracle at ${oracleFile} (every scored fixture needs its oracle, kept in its own file)`,
  PL_ORACLE_CHANGED: (file: string, before: string, after: string) =>
    `${file}: the oracle changed while conditions ran (sha256 ${before} before, ${after} after)`,
  PL_POLICY_OUTPUT: (condition: string, fixture: string, point: string, problem: string) =>
    `condition ${condition} on ${fixture} at ${point}: ${problem}`,
  PL_POLICY_MODULE: (file: string, field: string, problem: string) =>
    `${file}: the policy module's default export, field "${field}": ${problem}`,
  PL_POLICY_MISSING: (file: string) => `policy module ${file} does not exist (give a .ts or .js file whose default export is a Condition)`,
  PL_POLICY_IMPORT: (file: string, detail: string) => `${file}: the policy module could not be loaded: ${detail}`,
  PL_POLICY_NAME_TAKEN: (file: string, name: string) =>
    `${file}: condition name "${name}" is already used by a built-in or another --policy module`,
  PL_CHECK_DIFFERS: (files: readonly string[]) =>
    `regenerated results differ from the committed ones in: ${files.join(', ')}`,
  PL_IO: (path: string, detail: string) => `could not write ${path}: ${detail}`,
  PL_GEN_OUT_NOT_CORPUS: (path: string) =>
    `option --out names ${path}, which exists and is not a generated corpus (no generated README.md); refusing to replace it`,
  PL_GEN_OUT_IS_FILE: (path: string) => `option --out names ${path}, which is a file, not a folder`,
  PL_MANIFEST_MISSING: (file: string) => `no fixture manifest at ${file} (write one with npm run fixtures:generate)`,
  PL_MANIFEST_INVALID: (file: string, detail: string) => `${file}: not a valid fixture manifest (${detail})`,
  PL_VERIFY_PROBLEMS: (manifest: string, problems: readonly string[]) =>
    `${manifest}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`,
  PL_VERIFY_CHANGED: (file: string, recorded: string, actual: string) =>
    `${file} changed: the manifest records sha256 ${recorded}, the file has ${actual}`,
  PL_VERIFY_MISSING: (file: string, recorded: string) => `${file} is missing: the manifest records sha256 ${recorded}, no such file`,
  PL_VERIFY_EXTRA: (file: string, actual: string) => `${file} is not in the manifest (sha256 ${actual})`,
  PL_VERIFY_GROUND_TRUTH: (file: string, expected: string, actual: string) =>
    `${file} differs from the generator's ground truth: regenerating gives sha256 ${expected}, the file has ${actual}`,
  PL_VERIFY_NOT_GENERATED: (file: string) => `${file} is in the generated corpus folder but the generator does not produce it`,
} as const;

export type MessageCode = keyof typeof messages;
