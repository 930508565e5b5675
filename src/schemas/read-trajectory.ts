import { EventSchema, type TrajectoryEvent } from './event.ts';
import { checkWithSchema, parseJson, readTextFile, readTextFileSync } from './json-with-schema.ts';

export interface Trajectory {
  events: TrajectoryEvent[];
  /** The last line was cut off (a crash mid-write) and was dropped. */
  truncated: boolean;
  /** The episode ran to its end (`episode-end` recorded). */
  finished: boolean;
}

/** A trajectory's lines as JSON, not yet checked against EventSchema (see trajectoryLines). */
export interface TrajectoryLines {
  /** Each line's JSON in order, with where it stands (`<file>:<line>`, for messages). */
  values: { json: unknown; where: string }[];
  /** The last line was cut off (a crash mid-write: no newline after it, and not JSON) and was dropped. */
  torn: boolean;
}

/**
 * The one reader of a trajectory's JSONL text (every command that reads one, resume, the queue's coordinator). Blank
 * lines are skipped (the recorder writes none; an editor may leave one). A cut-off last line is dropped and said
 * (`torn`); any other line that is not JSON throws `invalid-input` naming `<file>:<line>`.
 */
export function trajectoryLines(text: string, file: string): TrajectoryLines {
  const lines = text.split('\n');
  const values: TrajectoryLines['values'] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${file}:${index + 1}`;
    try {
      values.push({ json: parseJson(line, where), where });
    } catch (error) {
      // only the last line can be cut off: text.split leaves no line after it (no newline ended it)
      if (index === lines.length - 1) return { values, torn: true };
      throw error;
    }
  }
  return { values, torn: false };
}

/**
 * Parses a trajectory's JSONL text (lines as trajectoryLines reads them); a line that is not an event throws
 * `invalid-input` naming the file, the line and the field.
 */
export function parseTrajectory(text: string, file: string): Trajectory {
  const { values, torn } = trajectoryLines(text, file);
  const events = values.map(({ json, where }) => checkWithSchema(json, EventSchema, where));
  return { events, truncated: torn, finished: events.at(-1)?.type === 'episode-end' };
}

/** Reads a trajectory file's text; an unreadable file is `not-found` naming it. */
export async function readTrajectoryText(file: string): Promise<string> {
  return readTextFile(file, 'trajectory');
}

/** Reads and parses a trajectory file synchronously (many small files: far cheaper than through promises). */
export function readTrajectorySync(file: string): Trajectory {
  return parseTrajectory(readTextFileSync(file, 'trajectory'), file);
}

/** Reads and parses a trajectory file (see parseTrajectory). */
export async function readTrajectory(file: string): Promise<Trajectory> {
  return parseTrajectory(await readTrajectoryText(file), file);
}
