// A mutable config read twice. Unchanged (same content hash both times): the copies are interchangeable.
// Changed by someone else between the reads: the earlier value is history a later step needs, so the earlier read
// is not removable. Changed by the agent's own edit: only the current value matters and the earlier read may go; the edit call and
// the later read both hold that value, so they form a redundant group.
import { ob, claims, NO_CLAIMS, type FamilyFactory } from '../family.js';
import { configFile, withSetting } from '../payloads/configs.js';
import { sha256 } from '../../fixture/canonical.js';
import { NOUNS, PEOPLE, snake } from '../payloads/vocab.js';

export const mutableReread: FamilyFactory = (r, p, ctx) => {
  const variant = r.pick(['unchanged', 'changed-externally', 'changed-by-agent'] as const);
  const format = r.pick(['json', 'yaml'] as const);
  const key = snake(r.pick(NOUNS), r.pick(['timeout', 'pool_size', 'max_inflight', 'ttl'])).toUpperCase();
  const before = String(r.int(2, 60) * 50);
  const value = (v: string) => (format === 'json' ? `"${key}": ${v}` : `${key}: "${v}"`);
  // The later setting's text must not hold the earlier one's: in JSON, 100 then 1000 gives `"KEY": 1000`, which holds
  // `"KEY": 100`, so the later read would be a second holder of the old value the history needs. Stepping on past such
  // values draws nothing, so every other fixture is what it was.
  let later = Number(before) + r.int(1, 20) * 50;
  while (value(String(later)).includes(value(before))) later += 50;
  const after = String(later);
  const person = r.pick(PEOPLE);
  const tokens = r.logNormal(500, 0.5, 260, 2500);
  let path = '';
  let first = { id: '', turn: 0 };
  let second = { id: '', turn: 0 };
  let editId = '';
  return {
    family: 'mutable-reread',
    variant,
    span: variant === 'changed-by-agent' ? 3 : 2,
    exercises: ['source-identity', 'checked-supersession', 'same-tool-args-dedup', 'exact-redundancy'],
    open(b, at) {
      path = b.unique(() => `config/${ctx.service}.${r.pick(['staging', 'prod', 'canary'])}.${format}`);
      const identity = `${ctx.repo}/${path}`;
      const v1 = configFile(r, format, ctx.service, { key, value: before }, tokens);
      const v2 = variant === 'unchanged' ? v1 : withSetting(v1, after);
      b.tool('read_file', 'read-mutable', 'reads a workspace file');
      b.sourceState(identity, 0, v1.content);
      const src = (content: string) => ({
        identity,
        version: { kind: 'content-hash' as const, value: `sha256:${sha256(content).slice(0, 16)}` },
        mutable: true,
      });
      b.at(at.start);
      const read = (content: string) =>
        b.call(
          { tool: 'read_file', arguments: { path }, content: `read_file ${path}` },
          { content, source: src(content) },
        );
      first = { id: read(v1.content).result, turn: b.turn };
      if (variant === 'changed-by-agent') {
        b.tool('edit_file', 'non-idempotent', 'replaces one string in a file');
        b.at(at.start + 1);
        editId = b.call(
          {
            tool: 'edit_file',
            arguments: { path, old: value(before), new: value(after) },
            content: `edit_file ${path}\n-  ${value(before)}\n+  ${value(after)}`,
            effects: [{ source: identity, outcome: 'succeeded' }],
          },
          { content: `Edited ${path}: 1 line changed` },
        ).call;
      } else if (variant === 'changed-externally') {
        b.at(at.start + 1);
        b.note('user', 'instruction', `FYI ${person} changed ${key} in ${path} from the config UI a minute ago.`);
      }
      b.at(at.start + (variant === 'changed-by-agent' ? 2 : 1));
      if (variant !== 'unchanged') b.sourceState(identity, b.turn, v2.content);
      second = { id: read(v2.content).result, turn: b.turn };
    },
    use(b) {
      b.note(
        'model',
        'reasoning',
        variant === 'changed-externally'
          ? `Incident note: ${key} went from ${before} to ${after} in ${path} (changed by ${person} outside this session).`
          : `Incident note: ${key} is ${variant === 'unchanged' ? before : after} in ${path}.`,
      );
    },
    claimsAt(turn, at) {
      if (first.turn > turn || turn >= at.needAt) return NO_CLAIMS;
      const probe = {
        question: `What values did ${key} in ${path} take?`,
        expectedAnswer:
          variant === 'changed-externally' ? `${before}, then ${after}` : variant === 'unchanged' ? before : after,
      };
      if (variant === 'unchanged') {
        return claims({
          downstream: [
            ob(
              `ob-${p}-setting`,
              `The incident note quotes ${key} from ${path}.`,
              at.needAt,
              [first.id, second.id],
              [value(before)],
              probe,
            ),
          ],
          groups: [{ items: [first.id, second.id], keep: 1 }],
          rationale: `${path} read twice at the same content hash: either read serves.`,
        });
      }
      if (variant === 'changed-externally') {
        return claims({
          downstream: [
            ob(
              `ob-${p}-old`,
              `The incident note needs the value before ${person}'s change; nothing else recorded it.`,
              at.needAt,
              [first.id],
              [value(before)],
              probe,
            ),
            ob(
              `ob-${p}-new`,
              `The incident note needs the value after the change.`,
              at.needAt,
              [second.id],
              [value(after)],
              probe,
            ),
          ],
          necessary: [first.id, second.id],
          rationale: `${path} changed outside the session between the reads: the earlier read is the only record of the old value.`,
        });
      }
      // The agent's edit call already holds the value it set, so it and the later read are two copies of one fact.
      return claims({
        downstream: [
          ob(
            `ob-${p}-new`,
            `The note needs the current value the agent set.`,
            at.needAt,
            [editId, second.id],
            [value(after)],
            probe,
          ),
        ],
        groups: [{ items: [editId, second.id], keep: 1 }],
        rationale: `The agent's own edit changed ${path}; only the current value matters, and the edit call and the later read both hold it.`,
      });
    },
  };
};
