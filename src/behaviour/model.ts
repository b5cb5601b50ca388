// The model reader: a probe answered by the chosen provider from the context as the reader sees it. The engine is
// synchronous, so this runs in two passes: a collecting reader records every request the study would make, the
// calls run (concurrently, through the cache and budget), and then a lookup reader answers from the results.
import { z } from 'zod';
import { contentWords } from '../policy/mechanisms/predictive-semantic.js';
import type { Obligation } from '../fixture/schema.js';
import type { CallResult, Gateway } from '../providers/gateway.js';
import { runUntilStopped, type BudgetStop } from '../providers/gateway.js';
import { answerJson, prompt, PROMPT_VERSIONS } from '../providers/prompts.js';
import { sampling, type ChatRequest, type RemoteProvider } from '../providers/types.js';
import { renderContext, type Judgement, type ProbeInput, type Reader } from './reader.js';

export const READER_MAX_TOKENS = 256;

/** Sampling of the reader: greedy for one epoch; with several, enough temperature for epochs to differ. */
export function readerSampling(epochs: number): number {
  return epochs === 1 ? 0 : 0.7;
}

export interface ModelReaderSetup {
  readonly gateway: Gateway;
  readonly provider: RemoteProvider;
  readonly epochs: number;
  /** The run's seed; epoch e uses seed + e. */
  readonly seed: number;
}

export function readerRequest(
  input: Pick<ProbeInput, 'context' | 'obligation' | 'epoch'>,
  setup: Pick<ModelReaderSetup, 'provider' | 'epochs' | 'seed'>,
): ChatRequest {
  const user = `Context:\n\n${renderContext(input.context)}\n\nQuestion: ${input.obligation.probe.question}`;
  return {
    system: prompt(PROMPT_VERSIONS.reader),
    user,
    maxTokens: READER_MAX_TOKENS,
    ...sampling(setup.provider, readerSampling(setup.epochs), setup.seed + input.epoch),
    epoch: input.epoch,
  };
}

const Answer = z.strictObject({ answer: z.string() });

/**
 * Lexical grading, written down so it can be argued with: an answer is correct when it contains every string the
 * obligation requires (case-insensitive), or, for an obligation with no strings, at least half the content words
 * of the expected answer.
 */
export function gradeAnswer(answer: string, obligation: Obligation): boolean {
  const said = answer.toLowerCase();
  if (obligation.needs.strings.length > 0) return obligation.needs.strings.every((s) => said.includes(s.toLowerCase()));
  const wanted = contentWords(obligation.probe.expectedAnswer);
  if (wanted.size === 0) return false;
  const got = contentWords(answer);
  let hits = 0;
  for (const w of wanted) if (got.has(w)) hits += 1;
  return hits / wanted.size >= 0.5;
}

function base(setup: ModelReaderSetup): Omit<Reader, 'judge'> {
  const s = sampling(setup.provider, readerSampling(setup.epochs), setup.seed);
  return {
    label: setup.gateway.label,
    epochs: setup.epochs,
    temperature: s.temperature,
    seeds: s.seed === null ? null : Array.from({ length: setup.epochs }, (_, e) => setup.seed + e),
  };
}

export interface Collected {
  readonly request: ChatRequest;
  readonly what: string;
}

/** Pass one: records the request of every probe, in study order, and answers nothing of consequence. */
export function collectingReader(setup: ModelReaderSetup, into: Map<string, Collected>): Reader {
  return {
    ...base(setup),
    judge(input) {
      const request = readerRequest(input, setup);
      const key = setup.gateway.keyOf(request);
      if (!into.has(key)) {
        into.set(key, {
          request,
          what: `reader, ${input.fixture.id} at ${input.point.id}, obligation ${input.obligation.id}, ${input.side} context, epoch ${input.epoch}`,
        });
      }
      return { correct: false, answered: false, error: false, charge: null };
    },
  };
}

/** Every collected call's result by key; after a budget stop, those that completed, with the stop. */
export async function prepareAnswers(
  collected: ReadonlyMap<string, Collected>,
  gateway: Gateway,
  concurrency: number,
): Promise<{ answers: Map<string, CallResult>; stop: BudgetStop | null }> {
  const entries = [...collected.values()];
  const { done, stop } = await runUntilStopped(
    entries.map((c) => () => gateway.call(c.request, c.what)),
    concurrency,
  );
  return { answers: new Map(done.map((r) => [r.key, r])), stop };
}

/** Pass two: answers from the prepared calls. A failed call or an unparseable answer is a counted error. */
export function modelReader(setup: ModelReaderSetup, answers: ReadonlyMap<string, CallResult>): Reader {
  const provider = setup.provider;
  return {
    ...base(setup),
    judge(input): Judgement {
      const key = setup.gateway.keyOf(readerRequest(input, setup));
      const call = answers.get(key);
      if (!call)
        throw new Error(
          `internal: no prepared reader answer for ${input.fixture.id} at ${input.point.id}, ${input.obligation.id}`,
        );
      const charge = (failed: boolean) => ({ provider, model: setup.gateway.model, call, failed });
      if (!call.outcome.ok) return { correct: false, answered: false, error: true, charge: charge(true) };
      const json = answerJson(call.outcome.response.text);
      const parsed = json.ok ? Answer.safeParse(json.value) : undefined;
      if (!parsed?.success) return { correct: false, answered: false, error: true, charge: charge(true) };
      const text = parsed.data.answer.trim();
      const answered = text.length > 0 && text.toUpperCase() !== 'UNKNOWN';
      return {
        correct: answered && gradeAnswer(text, input.obligation),
        answered,
        error: false,
        charge: charge(false),
      };
    },
  };
}
