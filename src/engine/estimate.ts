// What the model calls of a run would cost, before any is made: tokenizer counts of the very requests the model
// phase would send, priced from the pricing table.
import { TOKENIZER, type TokenCounter } from '../accounting/tokens.js';
import { READER_MAX_TOKENS, readerRequest } from '../behaviour/model.js';
import { fullContext } from '../behaviour/measure.js';
import type { PrunePoint } from '../fixture/schema.js';
import type { PolicyView } from '../fixture/view.js';
import { builtInRegistry } from '../policy/registry.js';
import type { Condition } from '../policy/types.js';
import { requestTokens } from '../providers/gateway.js';
import { predictorRequest, PREDICTOR_MAX_TOKENS } from '../providers/predictor.js';
import { hasRates, priceOf, pricingTable, ratedUsd, type Price } from '../providers/pricing.js';
import type { ChatRequest, RemoteProvider } from '../providers/types.js';
import { isConsumer, scopesOf, usesModels, type ModelPlan } from './model-phase.js';

export interface EstimatePoint {
  readonly point: PrunePoint;
  readonly view: PolicyView;
}

/**
 * What the model calls of a run would cost, from tokenizer counts and the pricing table; nothing is called. Reader
 * calls are an upper bound: a pruned context is never longer than the full one, so each is counted at full length;
 * the full-context answers are shared by all conditions, and raw's pruned context is the full one.
 */
export function estimateCost(plan: ModelPlan, selected: readonly Condition[], points: readonly EstimatePoint[], tokens: TokenCounter, seed: number): string {
  if (!usesModels(plan)) return 'provider embedded: no model calls, no cost.\n';
  const provider = plan.provider as RemoteProvider;
  const model = plan.model!;
  const price = priceOf(provider, model);
  const rows: { role: string; calls: number; input: number; output: number }[] = [];
  const count = (r: ChatRequest) => requestTokens(tokens, r);
  if (selected.some(isConsumer)) {
    const requests = scopesOf(selected).flatMap((scope) => points.map((p) => predictorRequest(p.view, provider, seed, scope)));
    rows.push({ role: 'predictor', calls: requests.length, input: requests.reduce((n, r) => n + count(r), 0), output: requests.length * PREDICTOR_MAX_TOKENS });
  }
  if (plan.reader === 'model') {
    // The baseline's context is the full one the reader already reads once.
    const perProbe = 1 + selected.filter((c) => c.name !== builtInRegistry().baseline).length;
    let calls = 0;
    let input = 0;
    for (const { point, view } of points) {
      const context = fullContext(view);
      for (const obligation of [...point.visible.obligations, ...point.downstream]) {
        for (let epoch = 0; epoch < plan.epochs; epoch += 1) {
          calls += perProbe;
          input += perProbe * count(readerRequest({ context, obligation, epoch }, { provider, epochs: plan.epochs, seed }));
        }
      }
    }
    rows.push({ role: 'reader', calls, input, output: calls * READER_MAX_TOKENS });
  }
  return renderEstimate(provider, model, price, rows);
}

function renderEstimate(provider: RemoteProvider, model: string, price: Price | undefined, rows: readonly { role: string; calls: number; input: number; output: number }[]): string {
  const table = pricingTable();
  const usd = (tokensIn: number, tokensOut: number): string => {
    if (!hasRates(price)) return 'unknown (not in the pricing table)';
    return `$${ratedUsd(price, tokensIn, tokensOut).toFixed(2)}`;
  };
  const lines = [
    `Cost estimate for ${provider}/${model}: nothing was called.`,
    price
      ? `Rates per million tokens: input $${String(price.input)}, output $${String(price.output)} (pricing table retrieved ${table.retrieved}${price.confirmed ? '' : '; this row is not confirmed against the provider\'s own page'}).`
      : `The pricing table (retrieved ${table.retrieved}) has no row for this model, so no cost can be given.`,
    `Input tokens counted with ${TOKENIZER.package} ${TOKENIZER.encoding}${provider === 'anthropic' ? ", which is not Claude's tokenizer: Anthropic counts are APPROXIMATE" : ''}; output at each call's full allowance (an upper bound).`,
    '',
    'role       calls  input tokens  output tokens (max)  cost (upper bound)',
  ];
  let calls = 0;
  let input = 0;
  let output = 0;
  for (const r of rows) {
    lines.push(`${r.role.padEnd(10)} ${String(r.calls).padStart(5)}  ${String(r.input).padStart(12)}  ${String(r.output).padStart(19)}  ${usd(r.input, r.output)}`);
    calls += r.calls;
    input += r.input;
    output += r.output;
  }
  lines.push(`${'total'.padEnd(10)} ${String(calls).padStart(5)}  ${String(input).padStart(12)}  ${String(output).padStart(19)}  ${usd(input, output)}`);
  return `${lines.join('\n')}\n`;
}
