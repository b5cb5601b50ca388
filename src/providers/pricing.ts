// Cost from a response's own usage fields and the dated pricing table (pricing.json beside this file, which names
// the source of every row). A rate the table does not confirm is null, and any cost that needs it is null: an
// unknown price is reported as unknown, never as 0.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Usage } from './types.js';

const Rate = z.number().nonnegative().nullable();

export const PricingTable = z.strictObject({
  retrieved: z.iso.date(),
  currency: z.literal('USD'),
  unit: z.literal('per million tokens'),
  note: z.string(),
  /** The batch interfaces' discount: every rate of a batched request times this multiplier. */
  batch: z.strictObject({
    openai: z.strictObject({ multiplier: z.number().positive().max(1), date: z.iso.date(), source: z.string().min(1) }),
    anthropic: z.strictObject({
      multiplier: z.number().positive().max(1),
      date: z.iso.date(),
      source: z.string().min(1),
    }),
  }),
  models: z.array(
    z.strictObject({
      provider: z.enum(['openai', 'anthropic']),
      ids: z.array(z.string().min(1)).min(1),
      input: Rate,
      output: Rate,
      cacheRead: Rate,
      cacheWrite: Rate,
      source: z.string().min(1),
      confirmed: z.boolean(),
    }),
  ),
});
export type PricingTable = z.infer<typeof PricingTable>;
export type Price = PricingTable['models'][number];

export const PRICING_FILE = join(dirname(fileURLToPath(import.meta.url)), 'pricing.json');

let loaded: PricingTable | undefined;

export function pricingTable(): PricingTable {
  loaded ??= PricingTable.parse(JSON.parse(readFileSync(PRICING_FILE, 'utf8')));
  return loaded;
}

export function priceOf(provider: string, model: string, table: PricingTable = pricingTable()): Price | undefined {
  return table.models.find((m) => m.provider === provider && m.ids.includes(model));
}

/** The price of a request sent through the provider's batch interface: every known rate at the batch multiplier. */
export function batchPrice(price: Price | undefined, table: PricingTable = pricingTable()): Price | undefined {
  if (!price) return undefined;
  const m = table.batch[price.provider].multiplier;
  const scaled = (rate: number | null): number | null => (rate === null ? null : roundUsd(rate * m));
  return {
    ...price,
    input: scaled(price.input),
    output: scaled(price.output),
    cacheRead: scaled(price.cacheRead),
    cacheWrite: scaled(price.cacheWrite),
  };
}

/** A price with both an input and an output rate: what a worst case or an estimate needs. */
export type RatedPrice = Price & { readonly input: number; readonly output: number };

export function hasRates(price: Price | undefined): price is RatedPrice {
  return price !== undefined && price.input !== null && price.output !== null;
}

/** USD of input and output token counts at a rated price (unrounded: a bound or an estimate, never written as a cost). */
export function ratedUsd(price: RatedPrice, input: number, output: number): number {
  return (input * price.input + output * price.output) / 1_000_000;
}

/**
 * Dollar amounts are kept to the nano-dollar (1e-9 USD, far below any billed rate): binary floating point turns
 * sums of decimal prices into noise such as 0.007199999999999999, so every price and every sum of prices is
 * rounded once here and written clean. An integer count of nano-dollars divided by 1e9 is the closest double to
 * the decimal amount, which JSON prints in its shortest form.
 */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** The sum of two dollar amounts, rounded to the nano-dollar (see roundUsd). */
export function addUsd(a: number, b: number): number {
  return roundUsd(a + b);
}

/** USD for one response's usage; null when the model is not in the table or a rate it needs is unconfirmed. */
export function costUsd(price: Price | undefined, usage: Usage): number | null {
  if (!price) return null;
  const parts: [number, number | null][] = [
    [usage.input, price.input],
    [usage.output, price.output],
    [usage.cacheRead, price.cacheRead],
    [usage.cacheWrite, price.cacheWrite],
  ];
  let total = 0;
  for (const [tokens, rate] of parts) {
    if (tokens === 0) continue;
    if (rate === null) return null;
    // Rates are per million tokens, so this sums micro-dollars; one rounding at the end.
    total += tokens * rate;
  }
  return roundUsd(total / 1_000_000);
}
