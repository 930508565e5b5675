/**
 * CCTU's conversations file, which `sandbox run` writes beside the trajectories of a run of imported CCTU tasks
 * (github Junjie-Ye/CCTU, response_generator.py, main: `<output_dir>/response.jsonl`, read by evaluation.py's
 * `--input_response_data`). It ends in `.jsonl` but is not a trajectory.
 */
export const CCTU_RESPONSE_FILE = 'response.jsonl';

/** Whether a file name in a run folder is a trajectory (`<task id>.<repeat>.jsonl`). */
export const isTrajectoryName = (name: string): boolean => name.endsWith('.jsonl') && name !== CCTU_RESPONSE_FILE;
