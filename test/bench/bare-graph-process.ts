// The process the harness bench forks to run the bare LangGraph graphs in (see bare-graph.ts): answers each request
// it is sent over IPC, in order, and exits when its parent disconnects.
import { runBare, type BareRequest } from './bare-graph.ts';

process.on('message', (request: BareRequest) => {
  void runBare(request).then((reply) => process.send!(reply));
});
process.on('disconnect', () => process.exit(0));
