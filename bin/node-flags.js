// The Node flags a `sandbox` command needs, read from its arguments before anything loads: bin/sandbox.js starts
// itself again with them when Node was started without them, and `sandbox mcp-config` writes them into a client's
// command line. isolated-vm (the validator, mock tools, Python constraints) needs `--no-node-snapshot`; without the
// snapshot Node starts ≈60 ms of CPU slower (0.11–0.19 s against 0.07–0.12 s for `node -e 0`, load 7), time an MCP
// client waits for `initialize`. `serve --server sql` never loads isolated-vm (the SQL server and its query process):
// it starts with the snapshot.

/** `serve --server sql` (or `--server=sql`) as the first word. */
function servesSql(argv) {
  if (argv[0] !== 'serve') return false;
  const index = argv.indexOf('--server');
  return (index >= 0 && argv[index + 1] === 'sql') || argv.includes('--server=sql');
}

/** Node's flags for `sandbox <argv>`. */
export function nodeFlags(argv) {
  return servesSql(argv) ? [] : ['--no-node-snapshot'];
}
