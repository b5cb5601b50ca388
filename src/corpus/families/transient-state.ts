// Observations of transient state: pod restarts, PIDs, memory readings, a race's outcome. They cannot be taken
// again. Needed: a later report quotes the reading. Stale: the reading was taken again later with other values,
// and only the newer one is needed.
import type { TrajectoryBuilder } from '../builder.js';
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { freeM, kubectlPods, psAux } from '../payloads/system.js';
import { NOUNS } from '../payloads/vocab.js';

export const transientState: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['reading-needed', 'reading-stale'] as const);
  const what = r.pick(['pods', 'process', 'memory'] as const);
  const reads: { id: string; turn: number; key: string }[] = [];
  const take = (b: TrajectoryBuilder) => {
    const reading =
      what === 'pods'
        ? (() => {
            const s = kubectlPods(r, ctx.service, r.int(2, 10));
            return { content: s.content, key: s.content.split('\n')[1]!.trim() };
          })()
        : what === 'process'
          ? (() => {
              const s = psAux(r, `node dist/${r.pick(NOUNS)}-worker.js`, r.int(3, 25));
              return { content: s.content, key: `app      ${String(s.pid).padStart(7)}` };
            })()
          : (() => {
              const s = freeM(r);
              return { content: s.content, key: s.content.split('\n')[1]!.trim() };
            })();
    const tool = what === 'pods' ? 'kubectl_get' : what === 'process' ? 'ps' : 'free';
    const args =
      what === 'pods'
        ? { kind: 'pods', selector: `app=${ctx.service}`, namespace: `${ctx.domain}-staging` }
        : what === 'process'
          ? { pod: `${ctx.service}-0`, command: 'ps aux' }
          : { node: `${ctx.service}-node` };
    const pair = b.call(
      {
        tool,
        arguments: args,
        content:
          what === 'pods'
            ? `kubectl get pods -l app=${ctx.service} -n ${ctx.domain}-staging`
            : what === 'process'
              ? `kubectl exec ${ctx.service}-0 -- ps aux`
              : `ssh ${ctx.service}-node free -m`,
      },
      {
        content: reading.content,
        source: { identity: `k8s:${ctx.domain}-staging/${what}/${ctx.service}`, version: 'UNKNOWN', mutable: true },
        flags: { transientState: true },
      },
    );
    reads.push({ id: pair.result, turn: b.turn, key: reading.key });
  };
  return {
    family: 'transient-state',
    variant,
    span: variant === 'reading-stale' ? 2 : 1,
    exercises: ['regenerability-guard', 'same-tool-args-dedup', 'observation-masking'],
    open(b, at) {
      b.tool('kubectl_get', 'read-mutable', 'kubectl get <kind>');
      b.tool('ps', 'read-mutable', 'ps aux on a pod');
      b.tool('free', 'read-mutable', 'free -m on a node');
      b.at(at.start);
      take(b);
      if (variant === 'reading-stale') {
        b.at(at.start + 1);
        take(b);
      }
    },
    use(b) {
      b.note('model', 'reasoning', `Timeline: at the time of the check, ${reads[reads.length - 1]!.key}.`);
    },
    claimsAt(t, at) {
      if (reads.length === 0 || t < reads[0]!.turn || t >= at.needAt) return NO_CLAIMS;
      const latest = reads[reads.length - 1]!;
      return claims({
        downstream: [
          ob(
            `ob-${p}-reading`,
            `The incident timeline quotes the ${what} reading; it cannot be taken again.`,
            at.needAt,
            [latest.id],
            [latest.key],
            { question: `What did the last ${what} check show?`, expectedAnswer: latest.key },
          ),
        ],
        necessary: [latest.id],
        rationale:
          variant === 'reading-stale'
            ? 'The reading was taken again later; only the newer one feeds the timeline.'
            : 'The only reading of transient state the timeline needs.',
      });
    },
  };
};
