import type { ReferenceStep } from '../../src/schemas/reference-step.ts';
import { TaskSchema, type Task } from '../../src/schemas/task.ts';
import type { ToolSpec } from '../../src/schemas/tool-spec.ts';

/** The one tool of the weather task, as the agent sees it. */
export const WEATHER_TOOL: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

/** A tiny valid CCTU task: one mock tool over an inline world, runnable by the engine with the mock-tools server. */
export function weatherTask(trajectory: ReferenceStep[] = [
  { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { answer: 'It is sunny in Paris.' },
]): Task {
  return TaskSchema.parse({
    schemaVersion: 1,
    id: 'weather-demo',
    style: 'cctu',
    title: 'Weather in Paris',
    domain: 'weather',
    system: 'You are a helpful assistant.',
    query: 'What is the weather in Paris?',
    environment: { servers: [{ name: 'mock-tools', options: { world: { skies: { Paris: 'sunny', Rome: 'rain' } } } }] },
    tools: [{ ...WEATHER_TOOL, implementation: 'function run(args, world) { return { city: args.city, sky: world.skies[args.city] ?? "unknown" }; }' }],
    reference: { trajectory },
    grading: { structure: 'single-hop', subqueries: [{ query: 'weather in Paris', tool: 'get_weather', answer: 'sunny' }] },
  });
}
