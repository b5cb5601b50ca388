// The layer order of src/, bottom first: a module may import its own folder and any folder listed before it, never
// one after it. Each place is a decision, and the reason is written beside it; docs/architecture.md
// shows the same order. A new top-level folder of src/ fails the architecture test until it is placed here.
import type { LayerOrder } from './graph.js';

export const SOURCE_ROOT = 'src';

export const LAYERS: LayerOrder = [
  // Every user-facing message, then the typed errors that carry their codes: every layer may fail with a message.
  'messages',
  'errors',
  // Generic file helpers (atomic writes, the journaled swap): needed by every writer, knowing nothing of the study.
  'files',
  // The one zod schema, the PolicyView, canonical hashing: the data types every layer above speaks in.
  'fixture',
  // The tokenizer: a leaf that only needs to be below everything that counts tokens (corpus, providers, engine).
  'accounting',
  // Reserved for the cache economics (request sequences, the dated caching table): below the artifacts whose run
  // records carry its figures and below the timing whose cache-safe variant reads it.
  'economics',
  // The schemas of what a run writes; built on the fixture's types, read by score, providers, report and study.
  'artifacts',
  // The generator writes fixtures and oracles from its scenarios' ground truth, so it sits below every policy: an
  // oracle derived from what a policy does would be no oracle.
  'corpus',
  // Eligibility to PRUNE or DEFER: a function of the view, like a policy; below the policies because a condition
  // may carry its own timing.
  'timing',
  // Message-format adapters: a view rendered as a framework's message array, a pruner's output mapped back to items,
  // and the real npm pruners run as shipped. Only the view's types below it; the conditions built on it are the
  // policy layer's (a condition file lives beside the registry that lists it).
  'pruners',
  // Conditions see the PolicyView and nothing above it: in particular no oracle, no score, no model gateway.
  'policy',
  // Reserved for the --policy sandbox, which runs a user's policy in a process of its own: beside the policies it
  // runs, and below the oracle it must never reach.
  'sandbox',
  // Model backends: the predictor serves policy mechanisms (its requests use their types), so it sits above them;
  // and so no condition can import a gateway: a condition stays a pure function of its view.
  'providers',
  // The oracle sits above everything that decides (policy, timing, providers): what is truly removable is only
  // readable by what loads and scores.
  'oracle',
  // Reading a fixture with its oracle needs both folders below it; it is what keeps fixture/ from importing oracle/.
  'load',
  // Scoring decisions against the oracle and the world.
  'score',
  // The probe measures: a reader (structural or a model through providers) answering against scored contexts.
  'behaviour',
  // Runs fixtures x conditions: policy, timing, score, behaviour and the model phase together.
  'engine',
  // The preregistration, the fixture manifest and the frozen-input check: above the engine whose runs they pin.
  'study',
  // Reserved for the leak audit (a classifier per visible feature, scored against the oracle's labels): above the
  // oracle like scoring, below the report.
  'audit',
  // Tables and charts from results; its analysis plan reads the study's preregistration.
  'report',
  // The Context Viewer: an HTML site drawn from verified results, reusing the report's tables and charts; only the
  // command line imports it.
  'view',
  // Importers of recorded sessions and the ecology study over them, whose own report draws with the report's one
  // chart renderer; nothing but the command line imports it.
  'traces',
  // Experiment definitions (experiments/, beside src/): above the report they feed, below the CLI that loads them.
  'experiments',
  // The command line: one module per command; only bin.ts touches the process.
  'cli',
  // The package's library surface (src/index.ts): re-exports from the layers below and the study as one call;
  // nothing in src/ imports it, so a consumer's import never pulls in the command line.
  'index',
];
