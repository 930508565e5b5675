/**
 * A tool result as DDR-Bench's agent shows it to its insight model: the result's text parsed as JSON when it is JSON
 * (tool_server/mcp_client.py, `MCPClientManager._format_tool_result`: `json.loads(content.text)`, else the text), then
 * put into an f-string (agent/data_agent.py, `_environment_turn`: f"Tool execution result: {result}"), which is
 * Python's `str()`: a string as is, anything else by `repr` — dicts as {'key': value}, True/False/None, floats in
 * Python's shortest form ("1.0", "1e-05", "1e+16"). JSON is read token by token here because JavaScript's JSON.parse
 * loses what Python keeps: 1.0 is a float, 10**30 an exact int, a repeated key keeps its first place and last value.
 */
export function pythonStrOfToolResult(text: string): string {
  const parsed = parseJson(text);
  if (parsed === undefined) return text;
  return parsed.kind === 'str' ? parsed.value : repr(parsed);
}

type PyValue =
  | { kind: 'str'; value: string }
  | { kind: 'int'; digits: string }
  | { kind: 'float'; value: number }
  | { kind: 'const'; text: 'True' | 'False' | 'None' }
  | { kind: 'list'; items: PyValue[] }
  | { kind: 'dict'; entries: Map<string, PyValue> };

/** Python's json.loads of a whole text, or undefined where it raises (then DDR-Bench keeps the text). */
function parseJson(text: string): PyValue | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at += 1;
  };
  const value = (): PyValue => {
    space();
    const char = text[at];
    if (char === '{') {
      at += 1;
      const entries = new Map<string, PyValue>();
      space();
      if (text[at] === '}') return (at += 1), { kind: 'dict', entries };
      for (;;) {
        space();
        const key = value();
        if (key.kind !== 'str') throw new Error('key');
        space();
        if (text[at] !== ':') throw new Error(':');
        at += 1;
        // A repeated key: Python's dict keeps the first key's place and the last value (Map.set does the same).
        entries.set(key.value, value());
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') return (at += 1), { kind: 'dict', entries };
        else throw new Error('dict');
      }
    }
    if (char === '[') {
      at += 1;
      const items: PyValue[] = [];
      space();
      if (text[at] === ']') return (at += 1), { kind: 'list', items };
      for (;;) {
        items.push(value());
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') return (at += 1), { kind: 'list', items };
        else throw new Error('list');
      }
    }
    if (char === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      // JSON.parse refuses what Python's strict json.loads refuses in a string: control characters, bad escapes.
      const value = JSON.parse(text.slice(at, end + 1)) as string;
      at = end + 1;
      return { kind: 'str', value };
    }
    for (const [word, py] of [['true', 'True'], ['false', 'False'], ['null', 'None']] as const) {
      if (text.startsWith(word, at)) return (at += word.length), { kind: 'const', text: py };
    }
    // Python's json also reads NaN, Infinity and -Infinity (as floats).
    for (const [word, number] of [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]] as const) {
      if (text.startsWith(word, at)) return (at += word.length), { kind: 'float', value: number };
    }
    const number = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!number) throw new Error('value');
    at += number[0].length;
    if (number[1] === undefined && number[2] === undefined) return { kind: 'int', digits: BigInt(number[0]).toString() };
    return { kind: 'float', value: Number(number[0]) };
  };
  try {
    const result = value();
    space();
    return at === text.length ? result : undefined;
  } catch {
    return undefined;
  }
}

/** Python's repr of a float: shortest round-trip digits, scientific below 1e-4 and from 1e16 on. */
function floatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = value < 0 ? '-' : '';
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole.slice(0, exponent + 1)}.${fraction === '' ? '0' : fraction}`;
}

/** Python's repr of a str: single quotes unless the text has ' and no ", the non-printable characters escaped. */
function stringRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '\\' || char === quote) out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    // str.isprintable: not printable are the categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than the space.
    else if (char !== ' ' && /[\p{C}\p{Z}]/u.test(char)) out += code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : code < 0x10000 ? `\\u${code.toString(16).padStart(4, '0')}` : `\\U${code.toString(16).padStart(8, '0')}`;
    else out += char;
  }
  return out + quote;
}

function repr(value: PyValue): string {
  switch (value.kind) {
    case 'str':
      return stringRepr(value.value);
    case 'int':
      return value.digits;
    case 'float':
      return floatRepr(value.value);
    case 'const':
      return value.text;
    case 'list':
      return `[${value.items.map(repr).join(', ')}]`;
    case 'dict':
      return `{${[...value.entries].map(([key, item]) => `${stringRepr(key)}: ${repr(item)}`).join(', ')}}`;
  }
}
