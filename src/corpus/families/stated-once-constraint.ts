// A user constraint stated once, mid-session, that a later step must honour. Sometimes the runtime has recorded
// it as a visible obligation (so a policy can see it is needed); sometimes only the later step knows.
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { NOUNS, PEOPLE } from '../payloads/vocab.js';

export const statedOnceConstraint: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['downstream-only', 'visible-obligation'] as const);
  const n = r.int(2, 63);
  const templates = [
    {
      rule: `index names must be ${n} characters or fewer`,
      why: 'Postgres truncates longer names and the drift check flags them',
    },
    {
      rule: `never run migrations against ${ctx.domain}_prod from this session`,
      why: 'prod goes through the release train',
    },
    { rule: `keep the public API of @acme/${ctx.domain} unchanged`, why: `${r.pick(PEOPLE)}'s team pins it` },
    { rule: `batch writes in chunks of at most ${n * 10} rows`, why: `the ${r.pick(NOUNS)} replica lags otherwise` },
  ];
  const t = r.pick(templates);
  let id = '';
  let turn = 0;
  const strings = [t.rule];
  return {
    family: 'stated-once-constraint',
    variant,
    span: 1,
    exercises: ['regenerability-guard', 'oldest-first', 'observation-masking', 'predictive-semantic'],
    open(b, at) {
      b.at(at.start);
      turn = b.turn;
      id = b.note('user', 'constraint', `One more thing before you go on: ${t.rule}, because ${t.why}.`, {
        flags: { soleConstraintRecord: true },
      });
    },
    use(b) {
      b.note('model', 'reasoning', `Checked the change against the rule that ${t.rule}.`);
    },
    claimsAt(at_, at) {
      if (at_ < turn || at_ >= at.needAt) return NO_CLAIMS;
      const o = ob(`ob-${p}-rule`, `The user's rule: ${t.rule}.`, at.needAt, [id], strings, {
        question: 'What rule did the user state mid-session?',
        expectedAnswer: `${t.rule} (${t.why})`,
      });
      return claims({
        ...(variant === 'visible-obligation' ? { visible: [o] } : { downstream: [o] }),
        necessary: [id],
        rationale: 'The user stated the rule once; the later step must honour it.',
      });
    },
  };
};
