// The model flags of `experiment`, as data, and their parsing into a ModelPlan before anything runs. Building the
// gateway from that plan lives in ../providers/connect.ts; the model phase the plan drives in
// ../engine/model-phase.ts, and the cost estimate in ../engine/estimate.ts.
import { resolve } from 'node:path';
import { usage } from '../errors.js';
import { relativePath } from '../fixture/canonical.js';
import type { ModelPlan } from '../engine/model-phase.js';
import { CACHE_MODES } from '../providers/cache.js';
import { credentialsOf, KEY_VARIABLE } from '../providers/connect.js';
import { hasRates, priceOf, PRICING_FILE } from '../providers/pricing.js';
import { PROVIDERS } from '../providers/types.js';
import { integerFlag } from './args.js';
import type { Values } from './command.js';
import type { CliIO } from './io.js';

export const MODEL_DEFAULTS = {
  provider: 'embedded',
  reader: 'embedded',
  concurrency: 4,
  llmCache: 'record',
  cacheDir: '.llm-cache',
  epochs: 1,
  timeoutMs: 60_000,
  batchPollSeconds: 60,
} as const;

export const READERS = ['embedded', 'model'] as const;

export const MODEL_FLAGS = {
  provider: {
    type: 'enum',
    valueHint: 'P',
    options: PROVIDERS,
    default: MODEL_DEFAULTS.provider,
    description:
      'who plays the predictor (and the reader with --reader model): embedded is offline; openai and anthropic call the model --model',
  },
  model: { type: 'string', valueHint: 'ID', description: 'the model id; required for openai and anthropic' },
  reader: {
    type: 'enum',
    valueHint: 'R',
    options: READERS,
    default: MODEL_DEFAULTS.reader,
    description: 'embedded: the structural reader; model: probes answered by --provider',
  },
  epochs: {
    type: 'string',
    valueHint: 'N',
    default: String(MODEL_DEFAULTS.epochs),
    description:
      "model reader: answer each probe N times, each epoch its own recorded call (the epoch is part of the cache key). OpenAI: temperature 0.7 (0 for one epoch), seeds seed … seed+N−1. Anthropic takes neither, so its epochs differ only by the provider's default sampling, recorded as temperature and seeds null",
  },
  concurrency: {
    type: 'string',
    valueHint: 'N',
    default: String(MODEL_DEFAULTS.concurrency),
    description: 'model calls in flight at once',
  },
  'timeout-ms': {
    type: 'string',
    valueHint: 'N',
    default: String(MODEL_DEFAULTS.timeoutMs),
    description:
      'per-request timeout; timeouts, 429 and 5xx are retried (4 attempts, exponential backoff, seeded jitter, retry-after honoured)',
  },
  'max-cost-usd': {
    type: 'string',
    valueHint: 'X',
    description:
      "stop cleanly before a call would take this invocation's spend past X; the conditions already complete are written to --out marked incomplete (INCOMPLETE.md), exit 1 (default: no limit)",
  },
  'llm-cache': {
    type: 'enum',
    valueHint: 'M',
    options: CACHE_MODES,
    default: MODEL_DEFAULTS.llmCache,
    description: 'record: call and store every call; replay: stored calls only, no network; off: call, store nothing',
  },
  'cache-dir': {
    type: 'string',
    valueHint: 'DIR',
    default: MODEL_DEFAULTS.cacheDir,
    description: 'where calls are stored, one file per call',
  },
  resume: {
    type: 'boolean',
    description:
      'with record: reuse every stored successful call instead of calling again (finishes a budget-stopped run and replaces its incomplete output)',
  },
  'estimate-cost': {
    type: 'boolean',
    description:
      'print what the model calls would cost from tokenizer counts and the pricing table; calls nothing, writes nothing',
  },
  batch: {
    type: 'boolean',
    description:
      "send the calls through the provider's batch interface (OpenAI Batch, Anthropic Message Batches: half price, up to 24 hours); the batch id is kept in --cache-dir, so running the same command again resumes the batch; results go to the same cache as interactive calls. Needs --llm-cache record and no --max-cost-usd",
  },
  'batch-poll-seconds': {
    type: 'string',
    valueHint: 'S',
    default: String(MODEL_DEFAULTS.batchPollSeconds),
    description: 'seconds between two polls of a batch (a positive integer)',
  },
} as const;

type Flags = Values<typeof MODEL_FLAGS>;

function positive(flag: string, text: string | undefined, fallback: number): number {
  const n = integerFlag(flag, text, fallback);
  if (n < 1) throw usage('PL_USAGE_BAD_VALUE', flag, text ?? String(n), 'a positive integer');
  return n;
}

/** The plan the model flags give; the choices were checked against their definitions when parsed. */
export function parseModelFlags(flags: Flags, io: CliIO): ModelPlan {
  const provider = flags.provider ?? MODEL_DEFAULTS.provider;
  const reader = flags.reader ?? MODEL_DEFAULTS.reader;
  const cacheMode = flags['llm-cache'] ?? MODEL_DEFAULTS.llmCache;
  let maxCostUsd: number | null = null;
  const cost = flags['max-cost-usd'];
  if (cost !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(cost))
      throw usage('PL_USAGE_BAD_VALUE', '--max-cost-usd', cost, 'a non-negative amount in USD, such as 2.50');
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
    ({ apiKey, baseURL } = credentialsOf(provider, io.env));
    // Replay and estimates reach no server, so they need no key.
    if (!apiKey && cacheMode !== 'replay' && !flags['estimate-cost'])
      throw usage('PL_USAGE_KEY_MISSING', provider, KEY_VARIABLE[provider]);
    if (maxCostUsd !== null && !hasRates(priceOf(provider, model))) {
      throw usage('PL_USAGE_BUDGET_UNPRICED', `${provider}/${model}`, relativePath(PRICING_FILE, io.cwd));
    }
  }
  return {
    provider,
    model,
    reader,
    cacheMode,
    maxCostUsd,
    apiKey,
    baseURL,
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
