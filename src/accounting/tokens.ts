// Token counts with a real BPE tokenizer. One counter serves a whole run, so each distinct text (every item's
// payload, every placeholder) is tokenized once however many conditions look at it.
import { createRequire } from 'node:module';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const tokenizerVersion = (createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version: string }).version;

export const TOKENIZER = { package: 'gpt-tokenizer', version: tokenizerVersion, encoding: 'o200k_base' } as const;

/** Special-token text inside a payload is ordinary text to the model's context, so it is counted, not rejected. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

export interface TokenCounter {
  (text: string): number;
  /** How many distinct texts were tokenized: the run's tokenizer work. */
  readonly distinct: () => number;
}

export function tokenCounter(): TokenCounter {
  const cache = new Map<string, number>();
  const count = (text: string): number => {
    let n = cache.get(text);
    if (n === undefined) {
      n = text.length === 0 ? 0 : countTokens(text, AS_TEXT);
      cache.set(text, n);
    }
    return n;
  };
  return Object.assign(count, { distinct: () => cache.size });
}
