import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

// The layer rule of docs/architecture.md ("Layers"), enforced by `npm run lint` (eslint.layers.js): each case is a
// file placed in a folder, importing another folder; the expected verdict follows from the rule, not from ESLint.
const eslint = new ESLint({ cwd: REPO_ROOT });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return result!.messages.filter((message) => message.ruleId === 'boundaries/dependencies').map((message) => message.message);
}

describe('the layer rule', { timeout: 60_000 }, () => {
  it.each([
    ['a model importing the engine (upward)', 'src/models/upward.ts', "import { loadTask } from '../engine/load-task.ts';\nexport const f = loadTask;\n"],
    ['a grader importing the engine (upward)', 'src/graders/upward.ts', "import { runEpisode } from '../engine/run-episode.ts';\nexport const f = runEpisode;\n"],
    ['the engine importing the cli (upward)', 'src/engine/upward.ts', "import { EXIT_CODES } from '../cli/exit-codes.ts';\nexport const f = EXIT_CODES;\n"],
    ['schemas importing the validator (upward)', 'src/schemas/upward.ts', "import { buildStep } from '../validator/build-step.ts';\nexport const f = buildStep;\n"],
    ['a server importing the engine', 'mcp-servers/sql/upward.ts', "import { runEpisode } from '../../src/engine/run-episode.ts';\nexport const f = runEpisode;\n"],
    ['the validator importing graders (against the middle layer order)', 'src/validator/sideways.ts', "import { withConstraintChecks } from '../graders/index.ts';\nexport const f = withConstraintChecks;\n"],
    // src/mcp ↔ mcp-servers: only the server factories import a server, and servers import only the client's byte cap.
    ['an MCP client helper (outside environments/) importing a server', 'src/mcp/sideways.ts', "import { createServer } from '../../mcp-servers/sql/create-server.ts';\nexport const f = createServer;\n"],
    ['a server importing the MCP client (outside for-servers/)', 'mcp-servers/sql/sideways.ts', "import { connectServer } from '../../src/mcp/connect-server.ts';\nexport const f = connectServer;\n"],
    ['a server importing the server factories', 'mcp-servers/sql/sideways.ts', "import { ENVIRONMENT_SERVERS } from '../../src/mcp/environments/index.ts';\nexport const f = ENVIRONMENT_SERVERS;\n"],
    // the engine meets the servers only through src/mcp: the gateway's session interface is in src/schemas
    ['the engine importing a server', 'src/engine/sideways.ts', "import { SUBMIT_ANSWER } from '../../mcp-servers/gateway/create-server.ts';\nexport const f = SUBMIT_ANSWER;\n"],
    ['the engine importing the queue (upward: cli → queue → engine)', 'src/engine/upward.ts', "import { jobId } from '../queue/job.ts';\nexport const f = jobId;\n"],
    ['the queue importing the cli (upward)', 'src/queue/upward.ts', "import { EXIT_CODES } from '../cli/exit-codes.ts';\nexport const f = EXIT_CODES;\n"],
    // src/styles sits under the engine and the tools, above the middle layer.
    ['a style importing the engine (upward)', 'src/styles/cctu/upward.ts', "import { runEpisode } from '../../engine/run-episode.ts';\nexport const f = runEpisode;\n"],
    ['a grader importing the style registry (upward)', 'src/graders/upward.ts', "import { STYLES } from '../styles/registry.ts';\nexport const f = STYLES;\n"],
  ])('rejects %s', async (_name, file, code) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/no policy allowing dependencies/);
  });

  it('rejects a file-level import cycle: cctu-score.ts importing cctu.ts, which imports it', async () => {
    // the cycle issue 34 removed (cctu.ts ↔ cctu-official.ts, now both over cctu-score.ts), written back in
    const [result] = await eslint.lintText("import { cctuGrader } from './cctu.ts';\nexport const f = cctuGrader;\n", { filePath: path.join(REPO_ROOT, 'src/graders/cctu-score.ts') });
    expect(result!.messages.filter((message) => message.ruleId === 'import-x/no-cycle').map((message) => message.message)).toEqual(['Dependency cycle detected']);
  });

  it.each([
    ['the engine importing the validator (downward)', 'src/engine/downward.ts', "import { buildStep } from '../validator/build-step.ts';\nexport const f = buildStep;\n"],
    ['a grader importing schemas (downward)', 'src/graders/downward.ts', "import { FINISH_PREFIX } from '../schemas/ddr-messages.ts';\nexport const f = FINISH_PREFIX;\n"],
    ['the cli importing the engine (downward)', 'src/cli/downward.ts', "import { loadTask } from '../engine/load-task.ts';\nexport const f = loadTask;\n"],
    ['a model importing the error model at the top of src/', 'src/models/base.ts', "import { SandboxError } from '../sandbox-error.ts';\nexport const f = SandboxError;\n"],
    ['a server factory importing its server', 'src/mcp/environments/downward.ts', "import { createServer } from '../../../mcp-servers/sql/create-server.ts';\nexport const f = createServer;\n"],
    ['a server importing the client\'s byte cap', 'mcp-servers/sql/downward.ts', "import { capBytes } from '../../src/mcp/for-servers/cap-bytes.ts';\nexport const f = capBytes;\n"],
    ['the queue importing the engine (downward)', 'src/queue/downward.ts', "import { taskSha256 } from '../engine/run-identity.ts';\nexport const f = taskSha256;\n"],
    ['the engine importing the gateway session interface (schemas)', 'src/engine/downward.ts', "import type { GatewayTaskSession } from '../schemas/gateway-session.ts';\nexport type F = GatewayTaskSession;\n"],
    ['a server importing the argument checks it shares with the engine', 'mcp-servers/gateway/downward.ts', "import { ArgumentChecker } from '../../src/mcp/for-servers/check-arguments.ts';\nexport const f = ArgumentChecker;\n"],
    ['the cli importing the queue (downward)', 'src/cli/downward.ts', "import { jobId } from '../queue/job.ts';\nexport const f = jobId;\n"],
    ['the engine importing the style registry (downward)', 'src/engine/downward.ts', "import { styleOf } from '../styles/registry.ts';\nexport const f = styleOf;\n"],
    ['the results store importing the style registry (downward)', 'src/results/downward.ts', "import { STYLES } from '../styles/registry.ts';\nexport const f = STYLES;\n"],
    ['a style importing its grader (downward)', 'src/styles/cctu/downward.ts', "import { cctuGrader } from '../../graders/cctu.ts';\nexport const f = cctuGrader;\n"],
  ])('accepts %s', async (_name, file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
