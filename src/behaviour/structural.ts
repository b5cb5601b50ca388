// The embedded reader, labelled "structural": it answers a probe exactly when the obligation's required facts are
// in the context it is given, or can be recovered the way the obligation allows. It never guesses, so it makes no
// unsupported claim; on the full context it never fails. It measures structure, not a model's behaviour.
import type { Judgement, ProbeInput, Reader } from './reader.js';

export const STRUCTURAL = 'structural';

export function structuralReader(): Reader {
  return {
    label: STRUCTURAL,
    epochs: 1,
    temperature: null,
    seeds: null,
    judge(input: ProbeInput): Judgement {
      const correct = input.factsPresent || input.recovered;
      return { correct, answered: correct, error: false, charge: null };
    },
  };
}
