// The model flags of `experiment`: parsed and checked before anything runs into a ModelPlan. The model phase that
// plan drives (a prepared predictor, a reader) and the cost estimate live below the command line, in
// ../engine/model-phase.ts and ../engine/estimate.ts.
import { resolve } from 'node:path';
import { usage } from '../errors.js';
import { relativePath } from '../fixture/canonical.js';
import type { ModelPlan } from '../engine/model-phase.js';
import { CACHE_MODES } from '../providers/cache.js';
import { hasRates, priceOf, PRICING_FILE } from '../providers/pricing.js';
import { PROVIDERS, type RemoteProvider } from '../providers/types.js';
import { choiceFlag, integerFlag } from './args.js';
import type { CliIO } from './io.js';

// Kept so that imports written against this path still resolve; the model phase moved below the command line.
export { estimateCost, type EstimatePoint } from '../engine/estimate.js';
export {
  prepareStudy, rolesOf, usesModels, type BudgetStopReport, type ModelPlan, type PreparedStudy, type RoleCalls, type Sleeper, type StudyOutcome, type StudyPass,
} from '../engine/model-phase.js';

export const MODEL_FLAGS = {
  provider: { type: 'string' },
  model: { type: 'string' },
  reader: { type: 'string' },
  concurrency: { type: 'string' },
  'max-cost-usd': { type: 'string' },
  resume: { type: 'boolean' },
  'llm-cache': { type: 'string' },
  'cache-dir': { type: 'string' },
  epochs: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'estimate-cost': { type: 'boolean' },
  batch: { type: 'boolean' },
  'batch-poll-seconds': { type: 'string' },
} as const;

export const MODEL_DEFAULTS = { provider: 'embedded', reader: 'embedded', concurrency: 4, llmCache: 'record', cacheDir: '.llm-cache', epochs: 1, timeoutMs: 60_000, batchPollSeconds: 60 } as const;

export const MODEL_HELP = `  --provider P          embedded (default, offline), openai or anthropic: who plays the predictor (and reader)
  --model ID            the model id (needed for openai and anthropic)
  --reader R            embedded (default: the structural reader) or model (probes answered by --provider)
  --epochs N            model reader: answer every probe N times, each epoch its own recorded call (default 1);
                        openai: temperature 0.7, seeds seed..seed+N-1; anthropic takes neither, so its epochs
                        differ only by the provider's default sampling (recorded as temperature and seeds null)
  --concurrency N       model calls in flight at once (default ${MODEL_DEFAULTS.concurrency})
  --timeout-ms N        per-request timeout (default ${MODEL_DEFAULTS.timeoutMs}); timeouts, 429 and 5xx are retried
  --max-cost-usd X      stop cleanly before a call would take this invocation's spend past X; the conditions
                        already complete are written to --out marked incomplete (INCOMPLETE.md), exit 1
  --llm-cache M         record (default: call and store), replay (stored calls only, no network), off
  --cache-dir DIR       where calls are stored (default ${MODEL_DEFAULTS.cacheDir}/)
  --resume              with record: reuse every stored successful call instead of calling again (finishes a
                        budget-stopped run and replaces its incomplete output)
  --estimate-cost       print what the model calls would cost (tokenizer counts, pricing table); calls nothing
  --batch               send the calls through the provider's batch interface (OpenAI Batch, Anthropic Message
                        Batches: half price, up to 24 hours); the batch id is kept in --cache-dir, so running the
                        same command again resumes the batch; results go to the same cache as interactive calls
  --batch-poll-seconds S  seconds between two polls of a batch (default ${MODEL_DEFAULTS.batchPollSeconds})
`;

type Flags = { [K in keyof typeof MODEL_FLAGS]?: (typeof MODEL_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

const KEY_VARIABLE: Record<RemoteProvider, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };
const URL_VARIABLE: Record<RemoteProvider, string> = { openai: 'OPENAI_BASE_URL', anthropic: 'ANTHROPIC_BASE_URL' };

function positive(flag: string, text: string | undefined, fallback: number): number {
  const n = integerFlag(flag, text, fallback);
  if (n < 1) throw usage('PL_USAGE_BAD_VALUE', flag, text ?? String(n), 'a positive integer');
  return n;
}

export function parseModelFlags(flags: Flags, io: CliIO): ModelPlan {
  const provider = choiceFlag('--provider', flags.provider, PROVIDERS, MODEL_DEFAULTS.provider);
  const reader = choiceFlag('--reader', flags.reader, ['embedded', 'model'] as const, MODEL_DEFAULTS.reader);
  const cacheMode = choiceFlag('--llm-cache', flags['llm-cache'], CACHE_MODES, MODEL_DEFAULTS.llmCache);
  let maxCostUsd: number | null = null;
  const cost = flags['max-cost-usd'];
  if (cost !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(cost)) throw usage('PL_USAGE_BAD_VALUE', '--max-cost-usd', cost, 'a non-negative amount in USD, such as 2.50');
    maxCostUsd = Number(cost);
  }
  const batch = flags.batch ?? false;
  if (batch && provider !== 'embedded' && !flags['estimate-cost']) {
    if (cacheMode !== 'record') throw usage('PL_USAGE_BATCH_NEEDS_RECORD', cacheMode);
    if (maxCostUsd !== null) throw usage('PL_USAGE_BATCH_BUDGET');
  }
  if (reader === 'model' && provider === 'embedded') throw usage('PL_USAGE_READER_NEEDS_PROVIDER');
  const model = flags.model ?? null;
  let apiKey: string | null = null;
  let baseURL: string | undefined;
  if (provider !== 'embedded') {
    if (!model) throw usage('PL_USAGE_MODEL_MISSING', provider);
    apiKey = io.env?.[KEY_VARIABLE[provider]] || null;
    baseURL = io.env?.[URL_VARIABLE[provider]] || undefined;
    // Replay and estimates reach no server, so they need no key.
    if (!apiKey && cacheMode !== 'replay' && !flags['estimate-cost']) throw usage('PL_USAGE_KEY_MISSING', provider, KEY_VARIABLE[provider]);
    if (maxCostUsd !== null && !hasRates(priceOf(provider, model))) {
      throw usage('PL_USAGE_BUDGET_UNPRICED', `${provider}/${model}`, relativePath(PRICING_FILE, io.cwd));
    }
  }
  return {
    provider, model, reader, cacheMode, maxCostUsd, apiKey, baseURL,
    epochs: positive('--epochs', flags.epochs, MODEL_DEFAULTS.epochs),
    concurrency: positive('--concurrency', flags.concurrency, MODEL_DEFAULTS.concurrency),
    timeoutMs: positive('--timeout-ms', flags['timeout-ms'], MODEL_DEFAULTS.timeoutMs),
    cacheDir: resolve(io.cwd, flags['cache-dir'] ?? MODEL_DEFAULTS.cacheDir),
    resume: flags.resume ?? false,
    estimateCost: flags['estimate-cost'] ?? false,
    batch,
    batchPollMs: positive('--batch-poll-seconds', flags['batch-poll-seconds'], MODEL_DEFAULTS.batchPollSeconds) * 1000,
  };
}
