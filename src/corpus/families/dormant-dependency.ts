// A dependency that goes dormant and reopens: a workaround the agent made and closed early in the session (a
// pinned version, verified by a passing run), which a much later step reopens and which then needs the original
// failure's stack trace. The long gap is the point: recency and closure both say the trace is done with.
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { stackTrace, TRACE_LANGUAGES } from '../payloads/traces.js';
import { kebab, NOUNS, semver } from '../payloads/vocab.js';

export const dormantDependency: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['unmarked', 'pending-step'] as const);
  const language = r.pick(TRACE_LANGUAGES);
  const dep = kebab(r.pick(NOUNS), r.pick(['client', 'parser', 'driver', 'codec']));
  const bad = semver(r);
  const good = semver(r);
  let traceId = '';
  let summaryId = '';
  let top = '';
  let startTurn = 0;
  const trace: string[] = [];
  return {
    family: 'dormant-dependency',
    variant,
    span: 3,
    exercises: ['verified-completion', 'observation-masking', 'oldest-first', 'predictive-semantic'],
    open(b, at) {
      startTurn = at.start;
      b.tool('read_logs', 'read-mutable', 'reads recent log lines of a service');
      b.tool('edit_file', 'non-idempotent', 'replaces one string in a file');
      b.at(at.start);
      const t = stackTrace(r, language, ctx.domain, r.int(4, 30));
      top = t.top;
      const logs = b.call(
        {
          tool: 'read_logs',
          arguments: { service: ctx.service, since: '10m' },
          content: `read_logs ${ctx.service} --since 10m`,
        },
        {
          content: `${t.content}\n(${dep}@${bad} loaded)`,
          source: { identity: `logs:${ctx.service}`, version: 'UNKNOWN', mutable: true },
        },
      );
      traceId = logs.result;
      trace.push(logs.call, logs.result);
      b.at(at.start + 1);
      const manifest =
        language === 'python' ? 'requirements.txt' : language === 'java' ? 'build.gradle' : 'package.json';
      const pin = b.call(
        {
          tool: 'edit_file',
          arguments: { path: manifest, old: `${dep}@${bad}`, new: `${dep}@${good}` },
          content: `edit_file ${manifest}\n-  ${dep} ${bad}\n+  ${dep} ${good}`,
          effects: [`${ctx.repo}/${manifest}`],
        },
        { content: `Edited ${manifest}: 1 line changed` },
      );
      trace.push(pin.call, pin.result);
      b.at(at.start + 2);
      summaryId = b.note(
        'model',
        'reasoning',
        `Pinned ${dep} to ${good}; the crash is gone. Workaround only: revisit when the runtime moves.`,
      );
    },
    use(b) {
      b.note(
        'user',
        'instruction',
        `We're moving ${ctx.service} to the new runtime now and ${dep} ${good} does not support it. Is the original crash at ${top} back?`,
      );
    },
    claimsAt(t, at) {
      if (t < startTurn) return NO_CLAIMS;
      const unit = {
        id: `wu-${p}`,
        description: `Work around the ${dep} crash`,
        state: 'closed' as const,
        traceItems: trace,
        consequence: { itemId: summaryId, strings: [`Pinned ${dep} to ${good}`] },
      };
      if (t >= at.needAt) return claims({ workUnits: [unit] });
      return claims({
        workUnits: [unit],
        downstream: [
          ob(
            `ob-${p}-trace`,
            `When the pin is revisited the original crash has to be compared, and only the log read holds its trace.`,
            at.needAt,
            [traceId],
            [top],
            { question: `Where did the original ${dep} crash happen?`, expectedAnswer: top },
          ),
          ob(
            `ob-${p}-pin`,
            'The revisit starts from the pin that was made.',
            at.needAt,
            [summaryId],
            [`Pinned ${dep} to ${good}`],
            { question: `Which version of ${dep} was pinned?`, expectedAnswer: good },
          ),
        ],
        necessary: [traceId, summaryId],
        ...(variant === 'pending-step'
          ? {
              pendingSteps: [
                {
                  id: `ps-${p}`,
                  description: `Revisit the ${dep} pin when the runtime moves`,
                  references: [summaryId, traceId],
                },
              ],
            }
          : {}),
        rationale: `The ${dep} workaround closed ${at.needAt - t} turns before it reopens; the reopened step needs the original trace.`,
      });
    },
  };
};
