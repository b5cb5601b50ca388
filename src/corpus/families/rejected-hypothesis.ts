// Hypotheses the agent checked and rejected. In one variant a rejected hypothesis holds the only record of a
// live negative measurement a later question needs; in the other the agent also wrote the measurement to its
// notes, so every rejected hypothesis may go and the notes entry is what must stay.
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { freeM, kubectlPods, psAux } from '../payloads/system.js';
import { NOUNS } from '../payloads/vocab.js';

export const rejectedHypothesis: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['only-negative-evidence', 'evidence-recorded-elsewhere'] as const);
  const count = r.int(2, 3);
  const inUse = r.int(3, 20);
  const poolSize = r.pick([25, 50, 100]);
  const measurement = `max ${inUse}/${poolSize} connections in use during the spike`;
  let negId = '';
  let notesId = '';
  let causeId = '';
  let cause = '';
  let startTurn = 0;
  return {
    family: 'rejected-hypothesis',
    variant,
    span: count + 1,
    exercises: ['predictive-semantic', 'regenerability-guard', 'ladder'],
    open(b, at) {
      startTurn = at.start;
      b.tool('kubectl_get', 'read-mutable', 'kubectl get <kind>');
      b.tool('ps', 'read-mutable', 'ps aux on a pod');
      b.tool('free', 'read-mutable', 'free -m on a node');
      b.tool('pgbouncer_show', 'read-mutable', 'SHOW POOLS on pgbouncer');
      const checks = [
        () => ({
          tool: 'kubectl_get',
          args: { kind: 'pods', selector: `app=${ctx.service}` },
          text: `kubectl get pods -l app=${ctx.service}`,
          out: kubectlPods(r, ctx.service, r.int(3, 12)).content,
          h: 'the pods are being OOM-killed under load',
          check: 'kubectl get pods',
        }),
        () => ({
          tool: 'ps',
          args: { pod: `${ctx.service}-0`, command: 'ps aux' },
          text: `kubectl exec ${ctx.service}-0 -- ps aux`,
          out: psAux(r, `node dist/${r.pick(NOUNS)}.js`, r.int(4, 20)).content,
          h: 'a runaway worker process is starving the event loop',
          check: 'ps aux',
        }),
        () => {
          // Named with its node, as generic work names it (generator 5): a bare `free -m` holds no line a later step
          // could quote, so it marked this family's check as removable whatever its role.
          const node = `node-${r.int(1, 40)}`;
          return {
            tool: 'free',
            args: { node },
            text: `free -m # on ${node}`,
            out: freeM(r).content,
            h: 'the node is swapping',
            check: 'free -m',
          };
        },
      ];
      const order = r.sample([0, 1, 2], count);
      order.forEach((k, i) => {
        b.at(at.start + i);
        const c = checks[k]!();
        const pair = b.call(
          { tool: c.tool, arguments: c.args, content: c.text },
          {
            content: c.out,
            source: { identity: `k8s:${ctx.service}/${c.tool}`, version: 'UNKNOWN', mutable: true },
            flags: { transientState: true },
          },
        );
        void pair;
        b.note(
          'model',
          'hypothesis',
          // The check named as generic work's hypotheses name theirs (generator 5): quoting the command whole left the
          // call holding no line of its own, so the family's calls were removable by their text alone.
          `Hypothesis: ${c.h}. Checked with ${c.check}: the output does not show it, so this is rejected.`,
          { verdict: 'rejected' },
        );
      });
      b.at(at.start + count);
      const pools = `${' database | user | cl_active | cl_waiting | sv_active | sv_idle | maxwait\n'}${Array.from({ length: r.int(2, 6) }, () => ` ${ctx.domain} | app | ${r.int(0, inUse)} | 0 | ${r.int(0, inUse)} | ${r.int(0, 9)} | 0`).join('\n')}`;
      b.call(
        {
          tool: 'pgbouncer_show',
          arguments: { command: 'SHOW POOLS' },
          content: 'psql -p 6432 pgbouncer -c "SHOW POOLS"',
        },
        {
          content: pools,
          source: { identity: `pgbouncer:${ctx.service}/pools`, version: 'UNKNOWN', mutable: true },
          flags: { transientState: true },
        },
      );
      negId = b.note(
        'model',
        'hypothesis',
        `Hypothesis: the connection pool is exhausted. Watched SHOW POOLS through the spike: ${measurement}, no clients waiting. Rejected; the pool is not the bottleneck.`,
        { verdict: 'rejected', flags: { negativeResult: true } },
      );
      if (variant === 'evidence-recorded-elsewhere') {
        b.tool('append_notes', 'non-idempotent', 'appends to the session notes file');
        notesId = b.call(
          {
            tool: 'append_notes',
            arguments: { text: `pool check: ${measurement}` },
            content: `append_notes "pool check: ${measurement}"`,
          },
          { content: 'appended 1 line to NOTES.md' },
        ).call;
      }
      cause = `one query per ${r.pick(NOUNS)} in the ${r.pick(NOUNS)} resolver (N+1)`;
      causeId = b.note('model', 'reasoning', `Root cause: ${cause}.`);
    },
    use(b) {
      b.note('model', 'reasoning', `On the pool question: no, raising it would not help; ${measurement}.`);
    },
    claimsAt(t, at) {
      if (t < startTurn + count || t >= at.needAt) return NO_CLAIMS;
      // With the notes call the measurement sits in two items: either one answers, so they are a redundant group.
      const evidence = variant === 'only-negative-evidence' ? [negId] : [negId, notesId];
      return claims({
        downstream: [
          ob(
            `ob-${p}-pool`,
            'The pool-size question is answered from the live measurement, which cannot be taken again after the spike.',
            at.needAt,
            evidence,
            [measurement],
            { question: 'How many pool connections were in use during the spike?', expectedAnswer: measurement },
          ),
          ob(`ob-${p}-cause`, 'The fix and the answer cite the root cause.', at.needAt, [causeId], [cause], {
            question: 'What was the root cause?',
            expectedAnswer: cause,
          }),
        ],
        necessary: variant === 'only-negative-evidence' ? [negId, causeId] : [causeId],
        ...(variant === 'only-negative-evidence' ? {} : { groups: [{ items: evidence, keep: 1 }] }),
        rationale:
          variant === 'only-negative-evidence'
            ? 'The rejected pool hypothesis is the only record of the measurement; the other rejected hypotheses feed nothing.'
            : 'The measurement is in the pool hypothesis and in the notes call: either copy serves, so the two form a redundant group and the other rejected hypotheses may go.',
      });
    },
  };
};
