import { describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/main.ts';

function helpOf(name: string): string {
  const command = createProgram().commands.find((candidate) => candidate.name() === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.helpInformation();
}

describe('CLI help', () => {
  it('episode', () => {
    expect(helpOf('episode')).toMatchInlineSnapshot(`
      "Usage: sandbox episode [options]

      Run one episode and print a live transcript, then its score

      Options:
        --task <id|path>      a task id (looked up under episodes/) or a task file
        --model <spec>        reference, explorer (DDR), scripted:<file>,
                              replay:<trajectory>, human, openai:<model>,
                              anthropic:<model>, openai-compatible:<url>#<model>
                              (default: reference)
        --out <dir>           where the trajectory goes (<dir>/<task>.0.jsonl)
                              (default: "runs/episode")
        --enforcement <mode>  block: apply verdicts; observe: record only; off: no
                              checks (choices: "block", "observe", "off", default:
                              "block")
        --execute             plan tasks: also execute the accepted plan
        --seed <n>            seed recorded with the run (default: "0")
        --judge <spec>        a model that judges what only a judge can (DDR judge
                              accuracy, plan rubric metrics)
        -h, --help            display help for command
      "
    `);
  });
  it('run', () => {
    expect(helpOf('run')).toMatchInlineSnapshot(`
      "Usage: sandbox run [options]

      Run a suite (repeats × tasks) and print its summary; re-running into the same
      --out resumes

      Options:
        --suite <dir|glob>    a directory of task files, a glob, or one task file
        --model <spec>        the model spec (see \`sandbox episode --help\`)
        --repeats <n>         episodes per task (default: 1)
        --concurrency <n>     episodes in flight (default: 4)
        --out <dir>           run directory (default runs/<suite>-<model>)
        --enforcement <mode>  block: apply verdicts; observe: record only; off: no
                              checks (choices: "block", "observe", "off", default:
                              "block")
        --execute             plan tasks: also execute accepted plans
        --seed <n>            seed recorded with the run (default: "0")
        --judge <spec>        a model that judges what only a judge can (DDR judge
                              accuracy, plan rubric metrics)
        -h, --help            display help for command
      "
    `);
  });
  it('replay, grade, tasks', () => {
    expect([helpOf('replay'), helpOf('grade'), helpOf('tasks')].join('\n')).toMatchInlineSnapshot(`
      "Usage: sandbox replay [options] <trajectory>

      Re-execute a trajectory's tool calls against fresh servers and re-run the
      validator; report each divergence

      Arguments:
        trajectory  a trajectory file (runs/<run>/<task>.<repeat>.jsonl)

      Options:
        -h, --help  display help for command

      Usage: sandbox grade [options] <trajectory|run-dir>

      Re-score saved trajectories (one file, or every episode of a run directory)
      without running anything

      Arguments:
        trajectory|run-dir              a trajectory file or a run directory

      Options:
        --against <trajectory|run-dir>  compare with another run, episode by episode
                                        (block vs observe: the self-refinement gain of
                                        feedback)
        --judge <spec>                  a model that judges what only a judge can (DDR
                                        judge accuracy, plan rubric metrics)
        --json                          print the scores as JSON
        -h, --help                      display help for command

      Usage: sandbox tasks [options]

      List tasks with style, domain and counts

      Options:
        --suite <dir|glob>  a directory of task files or a glob (default: every task
                            under episodes/)
        --stats [suite]     print the suite's shape beside CCTU's (tools, ordering
                            chains, parallel groups, prompt tokens, domains)
        --json              print as JSON
        -h, --help          display help for command
      "
    `);
  });

  it('the command list', () => {
    expect(createProgram().helpInformation()).toMatchInlineSnapshot(`
      "Usage: sandbox [options] [command]

      Run, replay and grade multi-turn tool-use episodes under explicit constraints.

      Options:
        -h, --help                            display help for command

      Commands:
        episode [options]                     Run one episode and print a live
                                              transcript, then its score
        run [options]                         Run a suite (repeats × tasks) and print
                                              its summary; re-running into the same
                                              --out resumes
        replay <trajectory>                   Re-execute a trajectory's tool calls
                                              against fresh servers and re-run the
                                              validator; report each divergence
        grade [options] <trajectory|run-dir>  Re-score saved trajectories (one file,
                                              or every episode of a run directory)
                                              without running anything
        tasks [options]                       List tasks with style, domain and counts
        lint [options] <task-or-suite>        Check tasks for conflicting or
                                              infeasible constraints (a tool-call max
                                              below what the answer needs, JSON-only
                                              with a closing period, a round maximum
                                              below the dependent steps, …; a min
                                              above its max is already refused when
                                              the task loads)
        validate [options] <trajectory>       Re-validate a saved trajectory under its
                                              own constraints or a changed constraints
                                              file, and show what would have been
                                              blocked or rejected
        db                                    Build the seeded databases the SQL and
                                              transcripts servers serve
        serve [options]                       Serve a task (or a suite) over MCP with
                                              its constraints enforced and the session
                                              recorded; or a plain sql/transcripts
                                              server
        mcp-config [options]                  Print the MCP client config entry (and
                                              the \`claude mcp add\` line) for a task, a
                                              suite or a plain server
        help [command]                        display help for command
      "
    `);
  });

  it('serve, mcp-config', () => {
    expect([helpOf('serve'), helpOf('mcp-config')].join('\n')).toMatchInlineSnapshot(`
      "Usage: sandbox serve [options]

      Serve a task (or a suite) over MCP with its constraints enforced and the session
      recorded; or a plain sql/transcripts server

      Options:
        --task <id|path>          the task to play
        --suite <dir>             a suite: the client picks tasks with start_task
        --server <name>           serve a plain server instead of a task (choices:
                                  "sql", "transcripts")
        --db <path>               with --server: the DuckDB database (default: the
                                  contact-center database, built on first use)
        --index <dir>             with --server transcripts: the transcript index
                                  (default: beside the database)
        --http <host:port>        serve Streamable HTTP (default host 127.0.0.1)
                                  instead of stdio
        --token <token>           with --http: require Authorization: Bearer <token>
        --out <dir>               where session trajectories go (default:
                                  "runs/serve")
        --enforcement <mode>      block: apply verdicts; observe: record only; off: no
                                  checks (choices: "block", "observe", "off", default:
                                  "block")
        --shared-episode          with --http: every connection continues the same
                                  episode until it ends (for one-shot clients)
        --batch-ms <ms>           calls arriving within this window form one step (one
                                  assistant message) (default: "25")
        --idle-timeout <seconds>  with --http: a session with no request for this long
                                  ends (its episode recorded as incomplete); 0 = never
                                  (default: "600")
        -h, --help                display help for command

      Usage: sandbox mcp-config [options]

      Print the MCP client config entry (and the \`claude mcp add\` line) for a task, a
      suite or a plain server

      Options:
        --task <id|path>  serve one task with its constraints enforced
        --suite <dir>     serve a suite: a start_task tool picks the task (with
                          --http: also one endpoint per task)
        --server <name>   serve a plain server instead (choices: "sql", "transcripts")
        --db <path>       with --server: the database to serve
        --http <url>      an HTTP entry for a running \`sandbox serve --http\`, e.g.
                          http://127.0.0.1:3000/mcp
        --token <token>   with --http: the bearer token, sent as an Authorization
                          header
        --json            print only the JSON config ({"mcpServers": …}), for piping
        --name <name>     the server name in the client (default:
                          agent-sandbox-<task|suite|server>) (default: "")
        -h, --help        display help for command
      "
    `);
  });
});
