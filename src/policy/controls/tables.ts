// Where the controls' frozen tables live: beside the controls, as the trained parameters of two built-in conditions
// (a study pins them by the hash each control records in its parameters), written only by npm run controls:train.
import { fileURLToPath } from 'node:url';
import { readRateTable, type RateTable } from './rate-table.js';

export const CONTROLS_DIR = 'src/policy/controls/tables';

export function controlTableFile(control: string): string {
  return `${CONTROLS_DIR}/${control}.json`;
}

/** The committed table of a control, found from this module's place in the package (not from the working folder). */
export function readControlTable(control: string): RateTable {
  const shown = controlTableFile(control);
  return readRateTable(fileURLToPath(new URL(`../../../${shown}`, import.meta.url)), shown);
}
