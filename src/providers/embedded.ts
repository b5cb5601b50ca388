// The embedded backend: no key, no network, the default. Its predictor is the lexical one in
// policy/mechanisms/predictive-semantic.ts and its reader the structural one in behaviour/structural.ts; this
// module names them for the manifest and says which flags leave the study offline.
import type { Manifest } from '../artifacts/schema.js';

export const EMBEDDED = 'embedded';

export type ModelRoles = Manifest['models'];

export function modelRoles(
  predictor: { provider: string; model: string | null },
  reader: { provider: string; model: string | null },
): ModelRoles {
  return [
    { role: 'predictor', ...predictor },
    { role: 'reader', ...reader },
  ];
}

export const EMBEDDED_ROLES: ModelRoles = modelRoles(
  { provider: EMBEDDED, model: null },
  { provider: EMBEDDED, model: null },
);
