import { describeCommand } from './command.js';

export const reportCommand = describeCommand({
  meta: {
    name: 'report',
    script: 'report',
    description: 'tables and charts from a results folder, after checking every file against its manifest.json',
    about:
      'Rebuilds every table and chart from a results folder without running any condition, after checking every file\nagainst its manifest.json.',
  },
  args: {
    results: {
      type: 'string',
      valueHint: 'DIR',
      default: 'results',
      description: 'the results folder to read and write tables/ and charts/ into',
    },
  },
});
