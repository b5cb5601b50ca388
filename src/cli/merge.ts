import { describeCommand } from './command.js';

export const FLAGS = {
  shards: {
    type: 'positional',
    valueHint: 'SHARD_DIR',
    required: true,
    missing: 'PL_MERGE_NEEDS_SHARDS',
    description:
      'the folders written by npm run experiment -- --shard i/n --out SHARD_DIR: every shard of one run, in any order',
  },
  out: {
    type: 'string',
    valueHint: 'DIR',
    required: true,
    missing: 'PL_MERGE_NEEDS_SHARDS',
    description: 'where the joined run goes; it must not exist or be empty',
  },
} as const;

export const mergeCommand = describeCommand({
  meta: {
    name: 'merge',
    script: 'merge',
    description: 'join the folders of experiment --shard i/n into the folder the unsharded run writes, byte for byte',
    usage: ['SHARD_DIR... --out DIR'],
    about: `Joins the folders written by npm run experiment -- --shard i/n --out SHARD_DIR (every shard of one run, in any
order) into DIR, which must not exist or be empty. The result is the folder the unsharded run writes, byte for byte
(run.json aside, which holds the first shard's volatile facts); npm run experiment -- --check --out DIR verifies it.`,
  },
  args: FLAGS,
});
