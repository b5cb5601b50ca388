// The versioned prompts. A prompt's text goes into every request it builds, so editing one changes the cache keys
// of its calls; a changed meaning gets a new file (predict-v2.md), so recorded runs stay interpretable.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonStrict } from '../fixture/json.js';

export const PROMPT_VERSIONS = { predictor: 'predict-v2', reader: 'reader-v1' } as const;

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'prompts');
const loaded = new Map<string, string>();

export function prompt(version: string): string {
  let text = loaded.get(version);
  if (text === undefined) {
    text = readFileSync(join(DIR, `${version}.md`), 'utf8').trim();
    loaded.set(version, text);
  }
  return text;
}

/**
 * The JSON object a model answered with. Strict on purpose: the whole answer must be one JSON value, optionally
 * inside a single ```json fence (a common wrapper); anything else is unparseable, never repaired by guessing.
 */
export function answerJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  const body = fenced ? fenced[1]! : trimmed;
  try {
    // Strict: an answer that names a key twice contradicts itself (which confidence, which list?), so it is unusable.
    return { ok: true, value: parseJsonStrict(Buffer.from(body, 'utf8'), 'the answer') };
  } catch (err) {
    return { ok: false, reason: `answer is not one JSON object (${(err as Error).message})` };
  }
}
