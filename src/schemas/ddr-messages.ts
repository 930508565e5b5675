/** DDR's protocol facts, shared by the engine's protocol, the explorer and the graders. */

/** The prefix that ends a DDR episode. */
export const FINISH_PREFIX = 'FINISH:';

/** Whether a message is the agent's own end of a DDR episode (leading white space allowed). */
export function isFinishMessage(content: string | null | undefined): boolean {
  return (content ?? '').trimStart().startsWith(FINISH_PREFIX);
}

export const DDR_NUDGE =
  'Continue the analysis: call exactly one tool, or, when you are done, reply with a message starting "FINISH:" followed by your findings.';
export const DDR_SUMMARY_REQUEST =
  'The turn limit is reached. Reply now with a message starting "FINISH:" that summarises everything you found; no more tool calls will run.';
