import { DECISION_LOGS } from '../artifacts/schema.js';
import { PLACEHOLDER_CHOICES } from '../engine/placeholder.js';
import { MAX_DEFAULT_WORKERS, MIN_FIXTURES_PER_WORKER } from '../engine/parallel.js';
import { PRUNER_FORMATS } from '../pruners/types.js';
import { MODEL_FLAGS } from './models.js';
import { describeCommand } from './command.js';

export const DEFAULTS = {
  fixtures: 'fixtures',
  out: 'results',
  seed: 20261202,
  timing: 'immediate',
  placeholders: 'marker',
  decisionLog: 'committed',
  policyTimeout: 60,
} as const;

export const FLAGS = {
  condition: {
    type: 'string',
    valueHint: 'NAME',
    multiple: true,
    description:
      'run only the named conditions, given as a comma-separated list or one per flag; all when none is named. The other condition folders in --out are kept when their inputs are the same',
  },
  policy: {
    type: 'string',
    valueHint: 'FILE',
    multiple: true,
    description:
      'also run your own Condition, the default export of FILE (.ts or .js): alone it runs only yours; name built-ins with --condition to run them beside it. It runs sandboxed: it may read only its own folder (no oracle, fixture or result) and write nothing. Needs --out',
  },
  pruner: {
    type: 'string',
    valueHint: 'FILE',
    multiple: true,
    description:
      "also run a framework's pruner as it is: FILE's default export is a function (messages, { budgetTokens }) => messages (or a Promise of them) in the --format given; each prune point is rendered in that format, the function runs sandboxed as --policy does, and what it returns is mapped back to each item (kept, removed, replaced by a placeholder, truncated; a summary or reordering is refused). Its condition is a comparator named after the file. Needs --out",
  },
  format: {
    type: 'enum',
    valueHint: 'F',
    options: PRUNER_FORMATS,
    description: 'the message format of the --pruner modules: openai-chat, anthropic-messages or ai-sdk',
  },
  'policy-timeout': {
    type: 'string',
    valueHint: 'S',
    default: String(DEFAULTS.policyTimeout),
    description: 'seconds a --policy module may take to load, and to answer each prune point, before it is stopped',
  },
  fixtures: {
    type: 'string',
    valueHint: 'PATH',
    default: DEFAULTS.fixtures,
    description:
      'a fixture .json file, or a folder searched recursively (oracles/ folders excluded); anything but the default is exploratory',
  },
  out: { type: 'string', valueHint: 'DIR', default: DEFAULTS.out, description: 'where to write' },
  timing: {
    type: 'string',
    valueHint: 'T',
    default: DEFAULTS.timing,
    description:
      "immediate; pressure:<share> (apply only when the context is above that share of the prune point's budget, else DEFER); task-boundary (apply only at prune points marked as task boundaries, else DEFER); cache-safe[:<profile>] (apply only once the provider's cached prefix has expired, at a task boundary, or when nothing was cached, else DEFER; profile from src/economics/caching.json, default anthropic-5m)",
  },
  placeholders: {
    type: 'enum',
    valueHint: 'P',
    options: PLACEHOLDER_CHOICES,
    default: DEFAULTS.placeholders,
    description:
      'marker leaves a mechanical marker for each removed item; none leaves nothing (a residue removal still keeps its residue), and a removal that would leave one half of a call/result pair is then not applied',
  },
  'decision-log': {
    type: 'enum',
    valueHint: 'L',
    options: DECISION_LOGS,
    description: `committed (the default) logs every decision record of the fixtures outside the generated corpus (decisions.jsonl) and, for the generated corpus, its points alone; all also writes the generated corpus's records (decisions.generated.jsonl.gz, about 2 million records, a third of the study's time), an audit log nothing in the analysis reads. With --check and no --decision-log, the mode the checked run's manifest records`,
  },
  seed: {
    type: 'string',
    valueHint: 'N',
    default: String(DEFAULTS.seed),
    description: 'recorded in the manifest; no built-in condition draws random numbers',
  },
  json: {
    type: 'boolean',
    description: 'print the summaries (or, with --list, the conditions) as JSON instead of a table',
  },
  list: { type: 'boolean', description: 'list every condition (name, layer, rung, what it does) and exit' },
  exploratory: {
    type: 'boolean',
    description:
      'run without checking the inputs against the preregistration; every output is stamped exploratory (runs on other --fixtures or options are stamped too; a condition the preregistration does not name, built-in or from --policy, is stamped alone)',
  },
  shard: {
    type: 'string',
    valueHint: 'I/N',
    description:
      'run only shard I of N (a contiguous block of the fixtures in file order) into --out, which it needs; join the shards with npm run merge -- A B ... --out DIR (the same bytes as the unsharded run)',
  },
  workers: {
    type: 'string',
    valueHint: 'N',
    description: `threads that run fixtures side by side: this one and N-1 worker threads (the output is the same bytes whatever N); default one per core (at most ${MAX_DEFAULT_WORKERS}) when there are at least ${MIN_FIXTURES_PER_WORKER} fixtures per thread, else 1, which runs everything on this thread. Runs with a model provider or a --policy module always run on this thread`,
  },
  filter: {
    type: 'string',
    valueHint: 'GLOB',
    multiple: true,
    description:
      'a smoke run: only the fixtures whose id matches the glob (* any characters, ? one), or with family:NAME those of that family; several filters keep what any matches. A filter matching nothing is a usage error. The run is exploratory and needs --out',
  },
  limit: {
    type: 'string',
    valueHint: 'N',
    description:
      'a smoke run: only the first N fixtures (in file order, after --filter); more than there are runs them all. The run is exploratory and needs --out',
  },
  check: {
    type: 'boolean',
    description:
      'rerun with the same options into a temporary folder and compare byte for byte with --out; exit 1 naming every file that differs',
  },
  ...MODEL_FLAGS,
} as const;

export const experimentCommand = describeCommand({
  meta: {
    name: 'experiment',
    script: 'experiment',
    description: 'run pruning conditions over frozen fixtures and write decision logs, measures and the manifest',
    about: `Runs pruning conditions over frozen fixtures and writes, per condition, summary.json, points.csv (every fixture),
decisions.jsonl and points.jsonl (fixtures outside the generated corpus) and, for the generated corpus,
points.generated.jsonl.gz (and, with --decision-log all, decisions.generated.jsonl.gz); plus manifest.json for the
run. With the default
--fixtures it first checks every input against the preregistration.

Model-backed runs (--provider openai or anthropic) take their keys from OPENAI_API_KEY / ANTHROPIC_API_KEY and
their endpoints from OPENAI_BASE_URL / ANTHROPIC_BASE_URL.`,
  },
  args: FLAGS,
});
