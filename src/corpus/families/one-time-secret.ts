// A one-time secret or nonce: a short-lived database credential, an idempotency key, a signed upload nonce. It is
// issued once, by a non-idempotent call, and cannot be issued again the same. Needed later: the later step cannot
// run without the exact string. Already used: the step that needed it ran inside the episode, so it may go.
import type { TrajectoryBuilder } from '../builder.js';
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';

export const oneTimeSecret: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['needed-later', 'needed-later-pinned', 'already-used'] as const);
  const kind = r.pick(['db-credential', 'idempotency-key', 'upload-nonce'] as const);
  const secret =
    kind === 'db-credential'
      ? `v.${r.hex(8)}-${r.hex(24)}`
      : kind === 'idempotency-key'
        ? `idem_${r.hex(32)}`
        : `n-${r.hex(20)}`;
  const lease = `${kind === 'db-credential' ? 'database/creds' : 'payments/keys'}/${ctx.service}/${r.hex(12)}`;
  let resultId = '';
  let turn = 0;
  const issueText =
    kind === 'db-credential'
      ? `vault read database/creds/${ctx.service}-migrator`
      : kind === 'idempotency-key'
        ? `POST /v1/payment_intents (Idempotency-Key issued for ${ctx.service})`
        : `POST /v1/uploads/nonce for ${ctx.service}`;
  const content =
    kind === 'db-credential'
      ? `Key                Value\n---                -----\nlease_id           ${lease}\nlease_duration     ${r.pick(['15m', '1h', '30m'])}\nlease_renewable    true\npassword           ${secret}\nusername           v-${ctx.service}-migrator-${r.hex(6)}`
      : JSON.stringify(
          {
            id: `pi_${r.hex(24)}`,
            status: 'requires_confirmation',
            amount: r.int(100, 99999),
            currency: r.pick(['eur', 'usd', 'jpy']),
            [kind === 'idempotency-key' ? 'idempotency_key' : 'nonce']: secret,
            expires_at: r.int(1_790_000_000, 1_800_000_000),
          },
          null,
          2,
        );
  const useStep = (b: TrajectoryBuilder) => {
    b.tool('run_step', 'non-idempotent', 'runs a deployment step with the given environment');
    b.call(
      {
        tool: 'run_step',
        arguments: { step: `${kind}-consumer`, secret },
        content: `run_step ${kind}-consumer (secret passed via environment)`,
      },
      { content: `step ${kind}-consumer completed in ${r.int(2, 90)}s` },
    );
  };
  return {
    family: 'one-time-secret',
    variant,
    span: variant === 'already-used' ? 2 : 1,
    exercises: ['regenerability-guard', 'oldest-first', 'observation-masking', 'predictive-semantic'],
    open(b, at) {
      b.at(at.start);
      turn = b.turn;
      b.tool('issue_secret', 'non-idempotent', 'issues a one-time credential, key or nonce');
      resultId = b.call(
        { tool: 'issue_secret', arguments: { kind, scope: ctx.service }, content: issueText },
        { content, flags: { oneTimeSecret: true } },
      ).result;
      if (variant === 'already-used') {
        b.at(at.start + 1);
        useStep(b);
      }
    },
    use(b) {
      if (variant !== 'already-used') useStep(b);
      else b.note('model', 'reasoning', `The ${kind} consumer already ran; nothing else uses the ${kind}.`);
    },
    claimsAt(t, at) {
      if (t < turn || t >= at.needAt || variant === 'already-used') return NO_CLAIMS;
      return claims({
        downstream: [
          ob(
            `ob-${p}-secret`,
            `The ${kind} consumer step needs the exact ${kind}; it cannot be issued again the same.`,
            at.needAt,
            [resultId],
            [secret],
            { question: `What ${kind} was issued?`, expectedAnswer: secret },
          ),
        ],
        necessary: [resultId],
        ...(variant === 'needed-later-pinned' ? { pinned: [resultId] } : {}),
        rationale: `The ${kind} was issued once and a later step needs it verbatim.`,
      });
    },
  };
};
