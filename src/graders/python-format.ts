/**
 * Python's `str.format` with named fields only, as DDR-Bench fills its prompt templates (evaluate/unified_evaluator.py,
 * `self.prompts["chat_user"].format(context=…, question=…, ground_truth=…)`): `{{` and `}}` are literal braces,
 * `{name}` is the field; a field not given, a conversion or a format spec, or a lone brace throws (Python raises
 * KeyError / ValueError there too), so a template this does not fill as Python would is refused, never half-filled.
 */
export function pythonFormat(template: string, fields: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}|[{}]/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    if (name === undefined) throw new Error(`a lone "${match}" (Python's str.format raises ValueError)`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`the field {${name}} is not a plain name`);
    const value = fields[name];
    if (value === undefined) throw new Error(`the field {${name}} is not one DDR-Bench fills (${Object.keys(fields).join(', ')})`);
    return value;
  });
}
