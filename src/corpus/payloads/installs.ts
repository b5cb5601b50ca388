// Package-manager output as npm, pip and cargo print it while installing or fetching.
import type { Rng } from '../rng.js';
import { charsFor, kebab, linesUpTo, NOUNS, semver, VERBS } from './vocab.js';

export const MANAGERS = ['npm', 'pip', 'cargo'] as const;
export type Manager = (typeof MANAGERS)[number];

export interface Install {
  readonly content: string;
  readonly command: string;
  readonly added: number;
}

export function install(r: Rng, manager: Manager, tokens: number): Install {
  const chars = charsFor(tokens);
  switch (manager) {
    case 'npm': {
      const body = linesUpTo(
        chars - 300,
        () =>
          `npm warn deprecated ${kebab(r.pick(NOUNS), r.pick(VERBS))}@${semver(r)}: ${r.pick(['This package is no longer supported.', 'Use the native URL API instead.', 'Rimraf versions prior to v4 are no longer supported', 'Glob versions prior to v9 are no longer supported'])}`,
      );
      const added = r.int(120, 1900);
      body.push(
        '',
        `added ${added} packages, and audited ${added + 1} packages in ${r.int(3, 90)}s`,
        '',
        `${r.int(40, 300)} packages are looking for funding`,
        '  run `npm fund` for details',
        '',
        `found ${r.int(0, 4)} vulnerabilities`,
      );
      return { content: body.join('\n'), command: 'npm ci --no-audit', added };
    }
    case 'pip': {
      const body = linesUpTo(chars - 200, () => {
        const name = kebab(r.pick(NOUNS), r.pick(['client', 'core', 'utils', 'sdk']));
        return `Collecting ${name}==${semver(r)}\n  Downloading ${name.replace(/-/g, '_')}-${semver(r)}-py3-none-any.whl (${r.int(10, 900)} kB)`;
      });
      const added = body.length;
      body.push(`Installing collected packages: ${r.int(10, 80)} packages`, `Successfully installed ${added} packages`);
      return { content: body.join('\n'), command: 'pip install -r requirements.txt', added };
    }
    case 'cargo': {
      const body = [`    Updating crates.io index`];
      body.push(
        ...linesUpTo(
          chars - 200,
          () => `  Downloaded ${kebab(r.pick(NOUNS), r.pick(['derive', 'core', 'macros', 'sys']))} v${semver(r)}`,
        ),
      );
      const added = body.length - 1;
      body.push(
        `  Downloaded ${added} crates (${r.int(1, 40)}.${r.int(0, 9)} MB) in ${r.int(1, 20)}.${r.int(10, 99)}s`,
      );
      return { content: body.join('\n'), command: 'cargo fetch', added };
    }
  }
}
