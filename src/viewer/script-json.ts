/** JSON safe inside a <script> element: no `</script>`, no `<!--`, no line separators that end a JS string. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Code safe inside an inline <script> element. */
export function inlineScript(code: string): string {
  return code.replace(/<\/script/gi, '<\\/script');
}
