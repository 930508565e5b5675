import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../schemas/event.ts';

/** An event as a node hands it to the recorder: the recorder adds `schemaVersion`, `seq` and `time`. */
export type EventInput = TrajectoryEvent extends infer E ? (E extends TrajectoryEvent ? Omit<E, 'schemaVersion' | 'seq' | 'time'> : never) : never;

/**
 * Appends an episode's events to its JSONL trajectory as they happen: one kept-open file handle, one
 * synchronous write per event, so a crash leaves a readable prefix. Events are also kept in memory for grading.
 */
export class Recorder {
  readonly events: TrajectoryEvent[] = [];
  private descriptor: number | null = null;

  /** `file` null records in memory only. */
  constructor(
    readonly file: string | null,
    private readonly onEvent?: (event: TrajectoryEvent) => void,
  ) {
    if (file) this.descriptor = openCreatingFolder(file);
  }

  record(input: EventInput): TrajectoryEvent {
    const event = { schemaVersion: EVENT_SCHEMA_VERSION, seq: this.events.length, time: new Date().toISOString(), ...input } as TrajectoryEvent;
    this.events.push(event);
    if (this.descriptor !== null) writeSync(this.descriptor, `${JSON.stringify(event)}\n`);
    this.onEvent?.(event);
    return event;
  }

  close(): void {
    if (this.descriptor === null) return;
    closeSync(this.descriptor);
    this.descriptor = null;
  }
}

/** Opens `file` for writing, making its folder only when it is missing (a suite's episodes share one: no mkdir per episode). */
function openCreatingFolder(file: string): number {
  try {
    return openSync(file, 'w');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(path.dirname(file), { recursive: true });
    return openSync(file, 'w');
  }
}
