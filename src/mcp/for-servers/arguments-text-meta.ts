/**
 * The `_meta` key of a tools/call request that carries the tool call's arguments as the model wrote them (JSON
 * text), beside the parsed `arguments`. A server running Python tools parses the text with Python's own `json.loads`,
 * as CCTU's harness does (utils/utils.py, get_feedback_tools), so `2.0` reaches the tool as a float, not as the `2`
 * a JavaScript parse and re-serialisation leaves.
 */
export const ARGUMENTS_TEXT_META = 'agent-sandbox/arguments-text';
