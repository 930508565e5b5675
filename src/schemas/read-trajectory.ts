import { EventSchema, type TrajectoryEvent } from './event.ts';
import { checkWithSchema, parseJson, readTextFile, readTextFileSync } from './json-with-schema.ts';

export interface Trajectory {
  events: TrajectoryEvent[];
  /** The last line was cut off (a crash mid-write) and was dropped. */
  truncated: boolean;
  /** The episode ran to its end (`episode-end` recorded). */
  finished: boolean;
}

/**
 * Parses a trajectory's JSONL text. A cut-off last line (a crash mid-write) is tolerated and dropped;
 * any other bad line throws `invalid-input` naming the file, the line and the field.
 */
export function parseTrajectory(text: string, file: string): Trajectory {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const events: TrajectoryEvent[] = [];
  let truncated = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const isLast = index === lines.length - 1;
    let json: unknown;
    try {
      json = parseJson(line, `${file}:${index + 1}`);
    } catch (error) {
      if (isLast && !text.endsWith('\n')) {
        truncated = true;
        break;
      }
      throw error;
    }
    events.push(checkWithSchema(json, EventSchema, `${file}:${index + 1}`));
  }
  return { events, truncated, finished: events.at(-1)?.type === 'episode-end' };
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
