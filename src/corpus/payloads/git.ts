// git status, log and diff as git prints them.
import type { Rng } from '../rng.js';
import { PEOPLE, pascal, NOUNS, VERBS, DOMAINS } from './vocab.js';

export function gitStatus(branch: string, modified: readonly string[]): string {
  const lines = [`On branch ${branch}`, `Your branch is up to date with 'origin/${branch}'.`, ''];
  if (modified.length === 0) lines.push('nothing to commit, working tree clean');
  else {
    lines.push(
      'Changes not staged for commit:',
      '  (use "git add <file>..." to update what will be committed)',
      '  (use "git restore <file>..." to discard changes in working directory)',
    );
    for (const m of modified) lines.push(`\tmodified:   ${m}`);
    lines.push('', 'no changes added to commit (use "git add" and/or "git commit -a")');
  }
  return lines.join('\n');
}

export function commitSubject(r: Rng): string {
  return `${r.pick(DOMAINS)}: ${r.pick(VERBS)} ${r.pick(NOUNS)} ${r.pick(['before cutoff', 'per tenant', 'on retry', 'in UTC', 'with backoff', 'without a lock'])}`;
}

export function gitLog(r: Rng, head: string, count: number, branch: string): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const sha = i === 0 ? head.slice(0, 7) : r.hex(7);
    const deco =
      i === 0
        ? ` (HEAD -> ${branch}, origin/${branch})`
        : r.chance(0.15)
          ? ` (tag: v${r.int(1, 4)}.${r.int(0, 30)}.${r.int(0, 9)})`
          : '';
    lines.push(`${sha}${deco} ${commitSubject(r)} (${r.pick(PEOPLE)})`);
  }
  return lines.join('\n');
}

export function gitDiff(r: Rng, path: string, before: string, after: string): string {
  const line = r.int(4, 400);
  return [
    `diff --git a/${path} b/${path}`,
    `index ${r.hex(7)}..${r.hex(7)} 100644`,
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${line},3 +${line},3 @@ ${pascal(r.pick(VERBS))}${pascal(r.pick(NOUNS))}`,
    `   // ${r.pick(VERBS)} the ${r.pick(NOUNS)} first`,
    `-${before}`,
    `+${after}`,
    `   return result;`,
  ].join('\n');
}
