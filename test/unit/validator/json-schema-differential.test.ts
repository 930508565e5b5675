import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../databases/seeded-random.ts';
import { disposeIsolatePool, revalidate } from '../../../src/validator/index.ts';
import { answer, constraint } from './fixtures.ts';

afterAll(() => disposeIsolatePool());

// The isolate's JSON Schema checks (constraints/shared/json-schema.js: @cfworker/json-schema bundled in, our
// messages on top) against Ajv, the reference implementation, over generated schema/value pairs. The
// schemas always say what `additionalProperties` is and carry no `format`, so CCTU's two schema rules
// (constraints/README.md) change nothing and both validators must agree on every pair.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const KEYS = ['a', 'b', 'c', 'd'];
const chance = (random: SeededRandom, probability: number): boolean => random.next() < probability;

function makeValue(random: SeededRandom, depth: number): Json {
  const kind = random.int(0, depth > 2 ? 4 : 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return chance(random, 0.5);
    case 2:
      return random.pick([0, 1, 2, 3, -1, 5, 10, 100]);
    case 3:
      return random.pick([0.5, 2.5, -3.25, 1e3, 7]);
    case 4:
      return random.pick(['', 'a', 'ab', 'abc', 'Oslo', 'x1', 'ééé', '12', 'north']);
    case 5:
      return Array.from({ length: random.int(0, 3) }, () => makeValue(random, depth + 1));
    default: {
      const object: Record<string, Json> = {};
      for (const key of KEYS) if (chance(random, 0.5)) object[key] = makeValue(random, depth + 1);
      return object;
    }
  }
}

function makeSchema(random: SeededRandom, depth: number): Record<string, Json> {
  const type = random.pick(['string', 'integer', 'number', 'boolean', 'null', 'array', 'object', 'any', 'union', 'combined']);
  const schema: Record<string, Json> = {};
  if (type === 'any') {
    if (chance(random, 0.3)) schema.enum = [random.pick(['a', 'Oslo']), random.pick([1, 2, 0.5]), null];
    if (chance(random, 0.2)) schema.const = random.pick(['a', 1, true, null]);
    return schema;
  }
  if (type === 'union') {
    schema.type = random.pick([['string', 'integer'], ['number', 'null'], ['array', 'object'], ['boolean', 'string']]);
    return schema;
  }
  if (type === 'combined' && depth < 2) {
    const keyword = random.pick(['anyOf', 'oneOf', 'allOf', 'not']);
    if (keyword === 'not') schema.not = makeSchema(random, depth + 1);
    else schema[keyword] = Array.from({ length: random.int(1, 3) }, () => makeSchema(random, depth + 1));
    return schema;
  }
  schema.type = type === 'combined' ? 'string' : type;
  switch (schema.type) {
    case 'string':
      if (chance(random, 0.4)) schema.minLength = random.int(0, 3);
      if (chance(random, 0.4)) schema.maxLength = random.int(1, 4);
      if (chance(random, 0.3)) schema.pattern = random.pick(['^[a-z]+$', '\\d', '^O', 'é']);
      if (chance(random, 0.2)) schema.enum = ['a', 'Oslo', 'north'];
      break;
    case 'integer':
    case 'number':
      if (chance(random, 0.4)) schema.minimum = random.pick([0, 1, -2]);
      if (chance(random, 0.4)) schema.maximum = random.pick([3, 10, 100]);
      if (chance(random, 0.2)) schema.exclusiveMinimum = random.pick([0, 2]);
      if (chance(random, 0.2)) schema.exclusiveMaximum = random.pick([5, 1000]);
      if (chance(random, 0.2)) schema.multipleOf = random.pick([2, 0.5, 5]);
      break;
    case 'array':
      if (depth < 3 && chance(random, 0.7)) schema.items = makeSchema(random, depth + 1);
      if (depth < 3 && chance(random, 0.2)) schema.prefixItems = [makeSchema(random, depth + 1)];
      if (chance(random, 0.3)) schema.minItems = random.int(0, 2);
      if (chance(random, 0.3)) schema.maxItems = random.int(1, 3);
      if (chance(random, 0.2)) schema.uniqueItems = true;
      break;
    case 'object': {
      const properties: Record<string, Json> = {};
      if (depth < 3) for (const key of KEYS) if (chance(random, 0.5)) properties[key] = makeSchema(random, depth + 1);
      schema.properties = properties;
      if (chance(random, 0.5)) schema.required = KEYS.filter(() => chance(random, 0.3));
      schema.additionalProperties = chance(random, 0.3) ? true : chance(random, 0.5) ? false : { type: 'integer' };
      if (chance(random, 0.2)) schema.minProperties = random.int(1, 2);
      if (chance(random, 0.2)) schema.maxProperties = random.int(1, 3);
      break;
    }
  }
  return schema;
}

/** Whether each value is valid under its schema, as the isolate's lib.schemaIssues sees it (no issue = valid). */
function isolateVerdicts(pairs: Array<{ schema: Json; value: Json }>): boolean[] {
  const probe = constraint('probe', 'custom', {
    name: 'probe',
    source: `function init(args) { return args.pairs; }
function check(pairs, step) {
  const valid = pairs.map(function (pair) { return lib.schemaIssues(pair.schema, pair.value).length === 0; });
  return { verdicts: [{ effect: 'reject-answer', message: JSON.stringify(valid) }], state: pairs };
}`,
    args: { pairs },
  });
  const [verdicts] = revalidate([probe], [], [answer(1, 'go')], { timeoutMs: 30_000, memoryLimitMb: 128 });
  const message = verdicts![0]!.message;
  return JSON.parse(message.slice(message.indexOf('NOT FOLLOWED! ') + 'NOT FOLLOWED! '.length)) as boolean[];
}

describe('JSON Schema checks in the isolate agree with Ajv', () => {
  it('on 1,200 generated schema/value pairs', () => {
    const random = new SeededRandom(12);
    const pairs: Array<{ schema: Json; value: Json }> = [];
    for (let index = 0; index < 1_200; index++) {
      const schema = makeSchema(random, 0);
      // Half the values drawn to fit the schema's type more often: objects for object schemas and so on.
      const value = schema.type === 'object' && chance(random, 0.5) ? (makeValue(random, 2) ?? {}) : makeValue(random, 0);
      pairs.push({ schema, value });
    }
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const expected = pairs.map(({ schema, value }) => ajv.validate(schema as object, value) as boolean);
    const actual = isolateVerdicts(pairs);
    const disagreements = pairs.flatMap((pair, index) => (actual[index] === expected[index] ? [] : [{ ...pair, ajv: expected[index] }]));
    expect(disagreements).toEqual([]);
    // Both outcomes are well represented, so agreement is not a matter of everything passing.
    expect(expected.filter(Boolean).length).toBeGreaterThan(200);
    expect(expected.filter((valid) => !valid).length).toBeGreaterThan(200);
  });

  it('CCTU\'s schema rules on top: undeclared arguments refused where additionalProperties is unset, format not checked', () => {
    const schema: Record<string, Json> = { type: 'object', properties: { day: { type: 'string', format: 'date' } } };
    const pairs: Array<{ schema: Json; value: Json }> = [
      { schema, value: { day: 'tomorrow' } },
      { schema, value: { day: 'tomorrow', extra: 1 } },
      { schema: { ...schema, additionalProperties: true }, value: { day: 'x', extra: 1 } },
    ];
    expect(isolateVerdicts(pairs)).toEqual([true, false, true]);
  });
});
