// Where the controls' frozen tables live: with the study they belong to (experiments/ch10-ablation/controls/),
// written only by npm run controls:train.
import { fileURLToPath } from 'node:url';
import { readRateTable, type RateTable } from './rate-table.js';

export const CONTROLS_DIR = 'experiments/ch10-ablation/controls';

export function controlTableFile(control: string): string {
  return `${CONTROLS_DIR}/${control}.json`;
}

/** The committed table of a control, found from this module's place in the package (not from the working folder). */
export function readControlTable(control: string): RateTable {
  const shown = controlTableFile(control);
  return readRateTable(fileURLToPath(new URL(`../../../${shown}`, import.meta.url)), shown);
}
