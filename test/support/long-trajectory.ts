import { writeFile } from 'node:fs/promises';

/** A trajectory of `events` events, ~350 bytes each: rounds of model response, check, call and result. */
export async function longTrajectory(file: string, events: number): Promise<void> {
  const lines: string[] = [];
  const time = new Date().toISOString();
  const push = (event: Record<string, unknown>) => lines.push(JSON.stringify({ schemaVersion: 1, seq: lines.length, time, ...event }));
  push({ type: 'episode-start', taskId: 'long-task', model: 'reference', settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: {}, messages: [{ role: 'user', content: 'a long episode' }], tools: [] });
  let round = 0;
  while (lines.length < events - 1) {
    round += 1;
    const id = `call_${round}`;
    push({ type: 'model-response', round, message: { role: 'assistant', content: `Round ${round}: I look up the next record.`, tool_calls: [{ id, type: 'function', function: { name: 'record_lookup', arguments: JSON.stringify({ record_id: `R-${round}` }) } }] }, usage: {}, latencyMs: 12 });
    if (lines.length < events - 1) push({ type: 'constraint-check', step: { kind: 'tool-calls', round, calls: [{ id, name: 'record_lookup', arguments: JSON.stringify({ record_id: `R-${round}` }) }] }, verdicts: [], enforcement: 'block', durationMs: 0.4 });
    if (lines.length < events - 1) push({ type: 'tool-call', round, callId: id, name: 'record_lookup', arguments: JSON.stringify({ record_id: `R-${round}` }), disposition: 'executed' });
    if (lines.length < events - 1) push({ type: 'tool-result', round, callId: id, name: 'record_lookup', content: `{"record_id":"R-${round}","status":"active","owner":"team ${round % 17}","notes":"${'x'.repeat(280)}"}`, isError: false, durationMs: 3 });
  }
  push({ type: 'episode-end', status: 'limit', reason: 'round limit', finalAnswer: null, counts: { rounds: round, toolCalls: round, blockedCalls: 0, rejectedAnswers: 0 }, constraintStatus: {}, durationMs: 1000 });
  await writeFile(file, `${lines.join('\n')}\n`);
}
