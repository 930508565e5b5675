import { SandboxError } from '../../sandbox-error.ts';

/**
 * The few Python forms DDR-Bench's prompts are written in, read from the source text of the user's checkout (its
 * prompts are DDR-Bench's text: read at import time, never kept in this repository). Anything else in the places
 * read is refused in one line naming the file and what was found, never guessed.
 */

function refuse(file: string, message: string): never {
  throw new SandboxError('invalid-input', `${file}: ${message}`);
}

const SIMPLE_ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };

/** A Python string literal's body as its value: the escapes of a non-raw literal (an unknown escape keeps its backslash, as Python does). */
function unescape(body: string, raw: boolean): string {
  if (raw) return body;
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[\s\S])/g, (match, escape: string) => {
    if (escape in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[escape]!;
    if (/^[xuU]/.test(escape) && escape.length > 1) return String.fromCodePoint(parseInt(escape.slice(1), 16));
    if (/^[0-7]+$/.test(escape)) return String.fromCodePoint(parseInt(escape, 8));
    return match;
  });
}

/** One string literal at the start of `text` (optionally prefixed r/f): its value, whether an f-string, its length. */
function literalAt(text: string): { value: string; fString: boolean; length: number } | null {
  const match = /^([rRfF]{0,2})("""|'''|"|')/.exec(text);
  if (!match) return null;
  const prefix = match[1]!.toLowerCase();
  const quote = match[2]!;
  let index = match[0].length;
  while (index < text.length) {
    if (text[index] === '\\') index += 2;
    else if (text.startsWith(quote, index)) break;
    else if (quote.length === 1 && text[index] === '\n') return null;
    else index += 1;
  }
  if (index >= text.length) return null;
  return { value: unescape(text.slice(match[0].length, index), prefix.includes('r')), fString: prefix.includes('f'), length: index + quote.length };
}

/** Module-level `NAME = """…"""` string constants (evaluate/prompts.py). */
export function stringConstants(file: string, source: string): Map<string, string> {
  const constants = new Map<string, string>();
  for (const match of source.matchAll(/^([A-Za-z_]\w*)\s*=\s*(?=[rR]?("""|'''|"|'))/gm)) {
    const literal = literalAt(source.slice(match.index + match[0].length));
    if (literal === null) refuse(file, `the string of ${match[1]} does not end`);
    if (!literal.fString) constants.set(match[1]!, literal.value);
  }
  return constants;
}

/** The body of `def name(…):` up to the next line indented as much as the def or less. */
function functionBody(file: string, source: string, name: string): string[] {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^\\s*def ${name}\\(`).test(line));
  if (start < 0) refuse(file, `no function ${name}()`);
  const indent = /^\s*/.exec(lines[start]!)![0].length;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() !== '' && /^\s*/.exec(line)![0].length <= indent) break;
    body.push(line);
  }
  return body;
}

/**
 * What evaluate/prompts.py `get_prompts(scenario)` returns for one scenario: the `if/elif scenario == "<s>":` branch
 * whose `return { "key": CONSTANT, …, "use_qa_accuracy": True|False }` names the module's prompt constants.
 */
export function getPrompts(file: string, source: string, scenario: string): { prompts: Map<string, string>; useQaAccuracy: boolean } {
  const constants = stringConstants(file, source);
  const body = functionBody(file, source, 'get_prompts').join('\n');
  const branch = new RegExp(`(?:el)?if\\s+scenario\\s*==\\s*["']${scenario}["']\\s*:\\s*return\\s*\\{([^}]*)\\}`).exec(body);
  if (!branch) refuse(file, `get_prompts() has no branch for scenario "${scenario}" returning a dict`);
  const prompts = new Map<string, string>();
  let useQaAccuracy: boolean | undefined;
  for (const entry of branch[1]!.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const pair = /^["'](\w+)["']\s*:\s*(\w+)$/.exec(entry);
    if (!pair) refuse(file, `get_prompts("${scenario}") has an entry this import does not read: ${entry}`);
    const [, key, value] = pair;
    if (key === 'use_qa_accuracy') {
      if (value !== 'True' && value !== 'False') refuse(file, `get_prompts("${scenario}")["use_qa_accuracy"] is ${value}, not True or False`);
      useQaAccuracy = value === 'True';
    } else {
      const text = constants.get(value!);
      if (text === undefined) refuse(file, `get_prompts("${scenario}")["${key}"] names ${value}, which is not a string constant of the module`);
      prompts.set(key!, text);
    }
  }
  // get_prompts' caller reads it with .get("use_qa_accuracy", False) (evaluate/unified_evaluator.py, UnifiedEvaluator.__init__).
  return { prompts, useQaAccuracy: useQaAccuracy ?? false };
}

/**
 * DDR-Bench's agent system prompt for a task (agent/prompt_manager.py, `PromptManager.build_system_prompt_with_task`,
 * with `auto_finish` true as config.yaml sets it): the `self.<name> = """…"""` attributes of the class and the
 * function's statements, read one by one — `enhanced_prompt = self.<attr>`, `if self.auto_finish:`,
 * `enhanced_prompt += self.<attr> | "…" | f"…{task}…"`, `return enhanced_prompt`. Any other statement is refused.
 */
export function agentSystemPrompt(file: string, source: string, task: string): string {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(/self\.(\w+)\s*=\s*(?=[rR]?("""|'''|"|'))/g)) {
    const literal = literalAt(source.slice(match.index + match[0].length));
    if (literal !== null && !literal.fString) attributes.set(match[1]!, literal.value);
  }
  const attribute = (name: string) => attributes.get(name) ?? refuse(file, `build_system_prompt_with_task() reads self.${name}, which is not a string attribute of the class`);
  let prompt: string | undefined;
  for (const line of functionBody(file, source, 'build_system_prompt_with_task')) {
    const statement = line.trim();
    if (statement === '' || statement.startsWith('#') || statement.startsWith('"""')) continue;
    if (statement === 'if self.auto_finish:' || statement === 'return enhanced_prompt') continue;
    const assign = /^enhanced_prompt\s*(\+?=)\s*(.+)$/.exec(statement);
    if (!assign) refuse(file, `build_system_prompt_with_task() has a statement this import does not read: ${statement}`);
    const [, operator, expression] = assign;
    let value: string;
    const self = /^self\.(\w+)$/.exec(expression!);
    if (self) value = attribute(self[1]!);
    else {
      const literal = literalAt(expression!);
      if (literal === null || literal.length !== expression!.length) refuse(file, `build_system_prompt_with_task() appends an expression this import does not read: ${expression}`);
      value = literal.fString
        ? literal.value.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
            if (match === '{{') return '{';
            if (match === '}}') return '}';
            if (name === 'task') return task;
            return refuse(file, `build_system_prompt_with_task() formats {${name}}, not the task`);
          })
        : literal.value;
    }
    if (operator === '=') prompt = value;
    else if (prompt === undefined) refuse(file, 'build_system_prompt_with_task() appends before it assigns');
    else prompt += value;
  }
  if (prompt === undefined) refuse(file, 'build_system_prompt_with_task() builds no prompt');
  return prompt;
}

/**
 * The task sentence DDR-Bench's runner gives its agent for one entity (run_agent.py: `main` picks the scenario's
 * `*BatchAnalyzer`, whose `_prepare_analysis_command` sets `task = f"… {id}"`), with `entity` in its one field.
 */
export function agentTask(file: string, source: string, scenario: string, entity: string): string {
  const choice = new RegExp(`scenario\\s*==\\s*["']${scenario}["']\\s*:\\s*\\n\\s*analyzer\\s*=\\s*(\\w+)\\(`).exec(source);
  if (!choice) refuse(file, `main() picks no analyzer for scenario "${scenario}"`);
  const start = source.indexOf(`class ${choice[1]}(`);
  if (start < 0) refuse(file, `no class ${choice[1]}`);
  const next = source.indexOf('\nclass ', start + 1);
  const task = /\btask\s*=\s*f"([^"{}]*)\{(\w+)\}([^"{}]*)"/.exec(source.slice(start, next < 0 ? undefined : next));
  if (!task) refuse(file, `${choice[1]} sets no task = f"…{id}…"`);
  return `${task[1]}${entity}${task[3]}`;
}

/**
 * The one `return <string literal>` of `def name(self, …):` (a docstring and comments aside), and its parameters after
 * `self`. Read on the source text, not line by line: the literal's own lines may start at any column.
 */
function returnedLiteral(file: string, source: string, name: string): { value: string; fString: boolean; params: string[] } {
  const def = new RegExp(`^([ \\t]*)def ${name}\\(([^)]*)\\)[^:\\n]*:[ \\t]*\\n`, 'm').exec(source);
  if (!def) refuse(file, `no function ${name}()`);
  const params = def[2]!.split(',').map((param) => param.split(/[:=]/)[0]!.trim()).filter((param) => param !== '' && param !== 'self');
  let at = def.index + def[0].length;
  const skip = () => {
    for (;;) {
      const blank = /^(?:[ \t]*(?:#[^\n]*)?\n)+/.exec(source.slice(at));
      if (!blank) return;
      at += blank[0].length;
    }
  };
  skip();
  const docstring = /^[ \t]*/.exec(source.slice(at))![0];
  const doc = literalAt(source.slice(at + docstring.length));
  if (doc !== null && !doc.fString && /^[ \t]*(?:#[^\n]*)?\n/.test(source.slice(at + docstring.length + doc.length))) {
    at += docstring.length + doc.length;
    skip();
  }
  const statement = /^[ \t]+return[ \t]+/.exec(source.slice(at));
  const literal = statement ? literalAt(source.slice(at + statement[0].length)) : null;
  if (!statement || literal === null) refuse(file, `${name}() is not one "return <string>" statement`);
  at += statement[0].length + literal.length;
  // Nothing else may follow in the function: the next line that is not blank is indented as the def, or less.
  const after = /^[ \t]*(?:#[^\n]*)?(?:\n|$)/.exec(source.slice(at));
  const next = after ? /^(?:[ \t]*(?:#[^\n]*)?\n)*([ \t]*)\S/.exec(source.slice(at + after[0].length)) : null;
  if (!after || (next !== null && next[1]!.length > def[1]!.length)) refuse(file, `${name}() is not one "return <string>" statement`);
  return { value: literal.value, fString: literal.fString, params };
}

/**
 * The insight prompts of DDR-Bench's agent (agent/prompt_manager.py): `get_insight_system_prompt()`'s string, and
 * `build_insight_prompt(assistant_content, user_content, task)`'s f-string as a str.format template whose fields are
 * named by position — agent/data_agent.py `_generate_and_save_insight` calls it positionally with the agent's message,
 * the environment's message and the session's task — so whatever the checkout names its parameters, the template's
 * fields are {assistant_content}, {user_content} and {task}. Any other expression in the f-string is refused.
 */
export function insightPrompts(file: string, source: string): { system: string; user: string } {
  const system = returnedLiteral(file, source, 'get_insight_system_prompt');
  if (system.fString) refuse(file, 'get_insight_system_prompt() returns an f-string; this import reads a plain string');
  const user = returnedLiteral(file, source, 'build_insight_prompt');
  const CANONICAL = ['assistant_content', 'user_content', 'task'];
  if (user.params.length !== CANONICAL.length) refuse(file, `build_insight_prompt() takes ${user.params.length} parameters; DDR-Bench's agent passes 3 (assistant content, tool result, task)`);
  const template = user.fString
    ? user.value.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
        if (name === undefined) return match;
        const position = user.params.indexOf(name.trim());
        return position < 0 ? refuse(file, `build_insight_prompt() formats {${name}}, not one of its parameters`) : `{${CANONICAL[position]}}`;
      })
    : user.value.replace(/[{}]/g, (brace) => brace + brace);
  return { system: system.value, user: template };
}
