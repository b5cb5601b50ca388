// A unit of work that closed with its consequence recorded (a summary holding what later steps quote). Without a
// later dependency the whole trace may go once the unit is closed. With one, a later step needs a detail from
// the trace that the summary did not record, so closure alone does not make that trace item removable.
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { heldText } from '../held.js';
import { LANGUAGES, sourceFile, sourcePath } from '../payloads/source.js';
import { RUNNERS, testRun, testSuite } from '../payloads/tests.js';
import { gitDiff } from '../payloads/git.js';

export const completedSubtask: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['no-later-dependency', 'later-dependency'] as const);
  const language = r.pick(LANGUAGES);
  const runner = r.pick(RUNNERS);
  const ticket = `${ctx.domain.slice(0, 3).toUpperCase()}-${r.int(100, 9999)}`;
  const trace: string[] = [];
  let summaryId = '';
  let readId = '';
  let closedAt = 0;
  let startTurn = 0;
  let summaryStrings: string[] = [];
  let detail = '';
  /** Lines of the fixed function a later step may quote, the first choice first: see `use`. */
  let detailLines: string[] = [];
  let path = '';
  return {
    family: 'completed-subtask',
    variant,
    span: 4,
    exercises: ['verified-completion', 'oldest-first', 'predictive-semantic'],
    open(b, at) {
      startTurn = at.start;
      path = b.unique(() => sourcePath(r, language, ctx.domain));
      const file = sourceFile(r, language, path, r.logNormal(700, 0.5, 200, 3000));
      const block = file.content
        .split('\n\n')
        .find((part) => part.includes(file.symbol))!
        .split('\n');
      detail = block.find((l) => l.includes(file.symbol))!.trim();
      detailLines = [detail, ...block.map((l) => l.trim()).filter((l) => l.length >= 12 && l !== detail)];
      b.tool('read_file', 'read-mutable', 'reads a workspace file');
      b.tool('apply_patch', 'non-idempotent', 'applies a unified diff');
      b.tool('run_tests', 'read-mutable', 'runs a test command in a package');
      b.at(at.start);
      const taskId = b.note(
        'user',
        'instruction',
        `Please pick up ${ticket}: ${file.symbol} in ${path} mishandles the retry count. Small fix, then move on.`,
      );
      const read = b.call(
        { tool: 'read_file', arguments: { path }, content: `read_file ${path}` },
        {
          content: file.content,
          source: {
            identity: `${ctx.repo}/${path}`,
            version: { kind: 'content-hash', value: `sha256:${r.hex(16)}` },
            mutable: true,
          },
        },
      );
      readId = read.result;
      trace.push(taskId, read.call, read.result);
      b.at(at.start + 1);
      const patch = gitDiff(r, path, 'retries = retries - 1', 'retries = Math.max(0, retries - 1)');
      const edit = b.call(
        {
          tool: 'apply_patch',
          arguments: { patch },
          content: `apply_patch\n${patch}`,
          effects: [`${ctx.repo}/${path}`],
        },
        { content: `Applied patch to ${path}` },
      );
      trace.push(edit.call, edit.result);
      b.at(at.start + 2);
      const target = b.unique(() => `packages/${ctx.domain}-${ticket.toLowerCase()}`);
      const run = testRun(r, testSuite(r, runner, target, r.int(4, 20)), [], r.int(500, 30_000));
      const tests = b.call(
        {
          tool: 'run_tests',
          arguments: { cwd: target, command: run.command },
          content: `cd ${target} && ${run.command}`,
        },
        {
          content: run.content,
          covers: run.covers,
          source: { identity: `workspace:${target}`, version: 'UNKNOWN', mutable: true },
        },
      );
      trace.push(tests.call, tests.result);
      b.at(at.start + 3);
      closedAt = b.turn;
      summaryStrings = [`${ticket} fixed`, run.summary];
      summaryId = b.note(
        'model',
        'reasoning',
        `${ticket} fixed: ${file.symbol} no longer lets the retry count go negative (${path}). Tests: ${run.summary}.`,
      );
    },
    use(b) {
      // The detail must be a line the read alone holds in every context before the need. A line another item
      // repeats (a Go error line is the function's name and nothing else, and another file may define a function of
      // the same name) would make the two copies a redundant group, not a need of this read. Every item in such a
      // context is written by now, so the first line of the function that no other item holds is quoted.
      if (variant === 'later-dependency') {
        const held = heldText(b.items);
        detail = detailLines.find((l) => !held.heldByOther(l, readId)) ?? detail;
      }
      b.note(
        'model',
        'reasoning',
        variant === 'later-dependency'
          ? `The follow-up builds on ${detail} from ${path}; ${ticket} is already fixed.`
          : `Release notes: ${ticket} fixed.`,
      );
    },
    claimsAt(t, at) {
      if (t < startTurn) return NO_CLAIMS;
      const unit = {
        id: `wu-${p}`,
        description: `Fix ${ticket}`,
        state: t >= closedAt ? ('closed' as const) : ('open' as const),
        traceItems: trace,
        ...(t >= closedAt ? { consequence: { itemId: summaryId, strings: summaryStrings } } : {}),
      };
      if (t >= at.needAt) return claims({ workUnits: [unit] });
      const downstream = [
        ob(
          `ob-${p}-done`,
          `The release notes quote what ${ticket}'s fix recorded.`,
          at.needAt,
          [summaryId],
          [summaryStrings[0]!],
          { question: `What happened to ${ticket}?`, expectedAnswer: summaryStrings.join('; ') },
        ),
      ];
      if (variant === 'later-dependency')
        downstream.push(
          ob(
            `ob-${p}-detail`,
            `The follow-up needs ${path}'s declaration, which the summary did not record.`,
            at.needAt,
            [readId],
            [detail],
            { question: `How is the function in ${path} declared?`, expectedAnswer: detail },
          ),
        );
      return claims({
        workUnits: [unit],
        downstream,
        necessary: variant === 'later-dependency' ? [summaryId, readId] : [summaryId],
        rationale:
          variant === 'later-dependency'
            ? `${ticket} closed with its consequence recorded, but the follow-up needs a line of ${path} that only the trace holds.`
            : `${ticket} closed with its consequence recorded; its trace feeds no later step.`,
      });
    },
  };
};
