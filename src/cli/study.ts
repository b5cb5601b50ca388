// The one seam through which src/ reaches a study's definition: the CLI loads it here and hands it to the report.
// Nothing else under src/ imports from experiments/.
export { STUDY } from '../../experiments/ch10-ablation/study.js';
