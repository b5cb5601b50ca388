// Shared helpers for the trace tests: a temp folder, the samples, and an import straight into memory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { tokenCounter } from '../../src/accounting/tokens.js';
import type { Format } from '../../src/traces/build.js';
import { importTrace } from '../../src/traces/import.js';

export const SAMPLES = resolve('test/traces/samples');
export const REAL = resolve('data/real-traces');

export const sample = (name: string) => join(SAMPLES, name);
export const tempDir = () => mkdtempSync(join(tmpdir(), 'prunelab-traces-'));

export function imported(path: string, format?: Format, redact = true) {
  return importTrace(path, path, { ...(format ? { format } : {}), redact, tokens: tokenCounter() });
}
