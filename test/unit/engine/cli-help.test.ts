import { describe, expect, it } from 'vitest';
import { createProgram } from '../../../src/cli/main.ts';

const program = await createProgram();

function helpOf(name: string): string {
  const command = program.commands.find((candidate) => candidate.name() === name);
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
        --user-model <spec>   who plays the user's side of a conversation (a service
                              task's customer): rule-based, human, scripted:<file>,
                              replay:<trajectory>, openai:<model>, anthropic:<model>,
                              openai-compatible:<url>#<model>
        --out <dir>           where the trajectory goes: <dir>/<task>.<n>.jsonl, n the
                              first index not taken yet (default: "runs/episode")
        --enforcement <mode>  block: apply verdicts; observe: record only; off: no
                              checks (choices: "block", "observe", "off", default:
                              "block")
        --execute             plan tasks: also execute the accepted plan
        --seed <n>            seed recorded with the run (default: 0)
        --judge <spec>        a model that judges what only a judge can (DDR judge
                              accuracy, plan rubric metrics)
        --json                print one JSON object on stdout at the end (what the
                              command did, its exit code and why); the human output
                              goes to stderr
        -h, --help            display help for command
      "
    `);
  });
  it('run', () => {
    expect(helpOf('run')).toMatchInlineSnapshot(`
      "Usage: sandbox run [options]

      Run a suite (repeats × tasks) and print its summary; re-running the same run
      into the same --out resumes it

      Options:
        --suite <dir|glob>              a directory of task files, a glob
                                        (episodes/cctu/cctu2-mh-00[1-3].json), or one
                                        task file (default with --tasks: every task
                                        under episodes/)
        --model <spec>                  the model spec (see \`sandbox episode --help\`)
        --user-model <spec>             who plays the user's side of service tasks
                                        (see \`sandbox episode --help\`)
        --repeats <n>                   episodes per task (default: 1)
        --concurrency <n>               episodes in flight (default: 4)
        --out <dir>                     run directory (default runs/<suite>-<model>)
        --enforcement <mode>            block: apply verdicts; observe: record only;
                                        off: no checks (choices: "block", "observe",
                                        "off", default: "block")
        --execute                       plan tasks: also execute accepted plans
        --t2s-model <spec>              with --execute: the model that writes each T2S
                                        step's SQL (default: the offline text-to-SQL,
                                        which reads the step's words against the
                                        catalog)
        --seed <n>                      seed recorded with the run, and of --sample
                                        (default: 0)
        --judge <spec>                  a model that judges what only a judge can (DDR
                                        judge accuracy, plan rubric metrics)
        --fresh                         discard the trajectories, run.json and
                                        summary.json already in --out and start the
                                        run over
        --keep-errors                   on resume, keep episodes that ended in error
                                        instead of running them again
        --queue <redis://HOST:PORT/DB>  enqueue the episodes on Redis (BullMQ) for
                                        \`sandbox worker\` processes to play;
                                        trajectories come back here
        --rate <n/s|n/m>                with --queue: at most n episodes of this model
                                        started per second or minute, across all
                                        workers
        --shared-dir <dir>              with --queue: a folder every worker mounts
                                        (--out inside it); workers write the
                                        trajectories there instead of streaming them
                                        through Redis
        --json                          print one JSON object on stdout at the end
                                        (what the command did, its exit code and why);
                                        the human output goes to stderr
        --tasks <ids>                   only these tasks: ids and globs over ids,
                                        comma-separated (e.g.
                                        cctu2-mh-00[1-3],cctu2-sh-010)
        --limit <n>                     only the first N tasks (after --tasks and
                                        --sample)
        --sample <n>                    a seeded random sample of N tasks (see
                                        --seed), kept in suite order
        -h, --help                      display help for command
      "
    `);
  });
  it('fork', () => {
    expect(helpOf('fork')).toMatchInlineSnapshot(`
      "Usage: sandbox fork [options] <trajectory>

      Replay a trajectory's first rounds (recorded model messages, tool calls
      re-executed, divergences reported), then continue live with another model,
      enforcement or constraints

      Arguments:
        trajectory            the parent trajectory (runs/<run>/<task>.<repeat>.jsonl;
                              a fork works too)

      Options:
        --at <round>          replay rounds 1..ROUND of the parent; the model plays
                              from round ROUND+1
        --model <spec>        the model that continues (any spec; a scripted:<file>
                              plays its first step at round ROUND+1)
        --user-model <spec>   a conversation's customer after the replayed rounds'
                              recorded turns (default: the parent's,
                              episode-start.userModel)
        --enforcement <mode>  the fork's enforcement (default: the parent's) (choices:
                              "block", "observe", "off")
        --constraints <file>  constraints replacing the task's: a JSON list of
                              constraints, or an object (e.g. a task file) with
                              "constraints"
        --out <dir>           where the fork goes: <dir>/<task>.<n>.jsonl, n the first
                              index not taken yet (default: "runs/fork")
        --json                print one JSON object on stdout at the end (what the
                              command did, its exit code and why); the human output
                              goes to stderr
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
        --save      also write the divergences beside the trajectory
                    (<task>.<repeat>.replay.json), for sandbox view
        --json      print one JSON object on stdout at the end (what the command did,
                    its exit code and why); the human output goes to stderr
        -h, --help  display help for command

      Usage: sandbox grade [options] <trajectory|run-dir>

      Re-score saved trajectories (one file, or every episode of a run directory)
      without running anything

      Arguments:
        trajectory|run-dir              a trajectory file or a run directory

      Options:
        --against <trajectory|run-dir>  compare with another run, episode by episode
                                        (block vs observe: the self-refinement gain of
                                        feedback); forks against their parents: paired
                                        by parent, the outcome change per pair
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
                            chains, parallel groups, prompt tokens, domains; plan
                            tasks also step and hop distributions beside the paper's;
                            DDR tasks from \`ddr scaffold\` the kinds and effect sizes
                            of their items)
        --json              print as JSON
        --tasks <ids>       only these tasks: ids and globs over ids, comma-separated
                            (e.g. cctu2-mh-00[1-3],cctu2-sh-010)
        --limit <n>         only the first N tasks (after --tasks and --sample)
        --sample <n>        a seeded random sample of N tasks (see --seed), kept in
                            suite order
        --seed <n>          seed of --sample (default: 0)
        -h, --help          display help for command
      "
    `);
  });

  it('the command list', () => {
    expect(program.helpInformation()).toMatchInlineSnapshot(`
      "Usage: sandbox [options] [command]

      Run, replay and grade multi-turn tool-use episodes under explicit constraints.

      Options:
        -V, --version                         print the version of agent-sandbox
        --config <file>                       flag defaults from this file (default:
                                              sandbox.config.json or .yaml in the
                                              working directory)
        --env-file <file>                     load environment variables from this
                                              file (then from .env in the working
                                              directory); set variables are never
                                              overridden
        -h, --help                            display help for command

      Commands:
        episode [options]                     Run one episode and print a live
                                              transcript, then its score
        run [options]                         Run a suite (repeats × tasks) and print
                                              its summary; re-running the same run
                                              into the same --out resumes it
        replay [options] <trajectory>         Re-execute a trajectory's tool calls
                                              against fresh servers and re-run the
                                              validator; report each divergence
        fork [options] <trajectory>           Replay a trajectory's first rounds
                                              (recorded model messages, tool calls
                                              re-executed, divergences reported), then
                                              continue live with another model,
                                              enforcement or constraints
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
                                              transcripts servers serve, or import
                                              your own transcripts
        serve [options]                       Serve a task (or a suite) over MCP with
                                              its constraints enforced and the session
                                              recorded; or a plain server
                                              (mcp-servers/registry.ts)
        mcp-config [options]                  Print the MCP client config entry (and
                                              the \`claude mcp add\` line) for a task, a
                                              suite or a plain server
        import                                Import another benchmark's released data
                                              as a suite of tasks
        results [options] [dirs...]           Index run folders into the results store
                                              (DuckDB; only changed files are read)
                                              and print its reports
        report [options] <run-dir>            Write a report of one run:
                                              self-contained HTML with plots (opens
                                              offline), Markdown, CSV of episodes, or
                                              JUnit XML for CI
        export [options] <run-dir>            Export a run for training: each episode
                                              as an OpenAI-style message list (tool
                                              calls, tool results, feedback marked)
                                              with per-step verdicts, scores and a
                                              reward; JSON lines or Parquet
        view [options] [dirs...]              Open a local web viewer (127.0.0.1 only)
                                              of run folders: runs, plots, episodes,
                                              comparisons; updates live
        ddr                                   DDR (deep data research) suites for your
                                              own databases
        plan                                  Planning tools: optimize a plan with the
                                              lineage loop
        worker [options]                      Play the episodes \`sandbox run --queue\`
                                              enqueues (same checkout, same task
                                              files); SIGTERM finishes the episodes in
                                              flight, then exits
        help [command]                        display help for command
      "
    `);
  });

  it('serve, mcp-config', () => {
    expect([helpOf('serve'), helpOf('mcp-config')].join('\n')).toMatchInlineSnapshot(`
      "Usage: sandbox serve [options]

      Serve a task (or a suite) over MCP with its constraints enforced and the session
      recorded; or a plain server (mcp-servers/registry.ts)

      Options:
        --task <id|path>          the task to play
        --suite <dir>             a suite: the client picks tasks with start_task
        --http <host:port>        serve Streamable HTTP (default host 127.0.0.1)
                                  instead of stdio
        --token <token>           with --http: require Authorization: Bearer <token>
        --out <dir>               where session trajectories go (default:
                                  "runs/serve")
        --enforcement <mode>      block: apply verdicts; observe: record only; off: no
                                  checks (choices: "block", "observe", "off", default:
                                  "block")
        --user-model <spec>       a service task's customer, who answers each
                                  submit_answer through its result (customer_says:);
                                  see \`sandbox episode --help\`
        --shared-episode          with --http: every connection continues the same
                                  episode until it ends (for one-shot clients)
        --batch-ms <ms>           calls arriving within this window form one step (one
                                  assistant message) (default: "25")
        --max-sessions <n>        with --http: sessions open at once; one more is
                                  answered 503 with Retry-After (default: 100)
        --idle-timeout <seconds>  with --http: a session with no request for this long
                                  ends (its episode recorded as incomplete); 0 = never
                                  (default: "600")
        --server <name>           serve a plain server instead of a task (choices:
                                  "sql", "transcripts", "service")
        --db <path|url>           with --server sql: a DuckDB or SQLite file, or a
                                  postgres:// URL of a read-only role (default: the
                                  contact-center database, built on first use); with
                                  --server transcripts: the DuckDB database whose
                                  transcripts to index (default: the contact-center
                                  database, built on first use); with --server
                                  service: a contact-center DuckDB file (default: the
                                  contact-center database, built on first use)
        --timeout-ms <n>          with --server sql: per-query time limit in
                                  milliseconds
        --memory-limit <size>     with --server sql: the memory budget of all query
                                  processes together (default 320MB; DuckDB keeps 75
                                  %)
        --query-processes <n>     with --server sql: query processes shared by every
                                  session, each running up to 4 queries (default 1)
        --max-temp-size <size>    with --server sql: spill limit, e.g. 1GB
        --threads <n>             with --server sql: DuckDB threads
        --index <dir>             with --server transcripts: the transcript index
                                  (default: beside the database)
        --embeddings-url <url>    with --server transcripts: an OpenAI-compatible
                                  embeddings endpoint (or SANDBOX_EMBEDDINGS_URL)
        --embeddings-model <m>    with --server transcripts: its model (or
                                  SANDBOX_EMBEDDINGS_MODEL)
        --synonyms <file>         with --server transcripts: a synonyms file for query
                                  expansion
        --customer <id>           with --server service: the customer whose account is
                                  served, e.g. CU-0000042 (required)
        --now <time>              with --server service: the fixed "now" every write
                                  is stamped with, YYYY-MM-DDTHH:MM:SS (default
                                  2026-07-01T09:00:00)
        -h, --help                display help for command

      Usage: sandbox mcp-config [options]

      Print the MCP client config entry (and the \`claude mcp add\` line) for a task, a
      suite or a plain server

      Options:
        --task <id|path>        serve one task with its constraints enforced
        --suite <dir>           serve a suite: a start_task tool picks the task (with
                                --http: also one endpoint per task)
        --http <url>            an HTTP entry for a running \`sandbox serve --http\`,
                                e.g. http://127.0.0.1:3000/mcp
        --token <token>         with --http: the bearer token, sent as an
                                Authorization header
        --json                  print only the JSON config ({"mcpServers": …}) of one
                                client (--client), for piping
        --client <client>       with --json: desktop (claude_desktop_config.json:
                                commands only, an HTTP server through the mcp-remote
                                bridge) or code (Claude Code's .mcp.json:
                                type/url/headers) (choices: "desktop", "code",
                                default: "desktop")
        --name <name>           the server name in the client (default:
                                agent-sandbox-<task|suite|server>)
        --server <name>         serve a plain server instead (mcp-servers/registry.ts)
                                (choices: "sql", "transcripts", "service")
        --db <path|url>         with --server sql: a DuckDB or SQLite file, or a
                                postgres:// URL of a read-only role (default: the
                                contact-center database, built on first use); with
                                --server transcripts: the DuckDB database whose
                                transcripts to index (default: the contact-center
                                database, built on first use); with --server service:
                                a contact-center DuckDB file (default: the
                                contact-center database, built on first use)
        --timeout-ms <n>        with --server sql: per-query time limit in
                                milliseconds
        --memory-limit <size>   with --server sql: the memory budget of all query
                                processes together (default 320MB; DuckDB keeps 75 %)
        --query-processes <n>   with --server sql: query processes shared by every
                                session, each running up to 4 queries (default 1)
        --max-temp-size <size>  with --server sql: spill limit, e.g. 1GB
        --threads <n>           with --server sql: DuckDB threads
        --index <dir>           with --server transcripts: the transcript index
                                (default: beside the database)
        --embeddings-url <url>  with --server transcripts: an OpenAI-compatible
                                embeddings endpoint (or SANDBOX_EMBEDDINGS_URL)
        --embeddings-model <m>  with --server transcripts: its model (or
                                SANDBOX_EMBEDDINGS_MODEL)
        --synonyms <file>       with --server transcripts: a synonyms file for query
                                expansion
        --customer <id>         with --server service: the customer whose account is
                                served, e.g. CU-0000042 (required)
        --now <time>            with --server service: the fixed "now" every write is
                                stamped with, YYYY-MM-DDTHH:MM:SS (default
                                2026-07-01T09:00:00)
        -h, --help              display help for command
      "
    `);
  });
  it('results, report, view', () => {
    expect([helpOf('results'), helpOf('report'), helpOf('view')].join('\n')).toMatchInlineSnapshot(`
      "Usage: sandbox results [options] [dirs...]

      Index run folders into the results store (DuckDB; only changed files are read)
      and print its reports

      Arguments:
        dirs             run folders, or folders of runs (default: ["runs"])

      Options:
        --store <file>   the results store (default: "runs/results.duckdb")
        --json           print every report as JSON
        --csv            print one report (--report) as CSV
        --report <name>  the report --csv prints (choices: "leaderboard", "models",
                         "pass_k", "flip_rate", "violations", "judges", "service",
                         "cost", "unreadable", default: "leaderboard")
        -h, --help       display help for command

      Usage: sandbox report [options] <run-dir>

      Write a report of one run: self-contained HTML with plots (opens offline),
      Markdown, CSV of episodes, or JUnit XML for CI

      Arguments:
        run-dir            a run folder

      Options:
        --format <format>  report format (choices: "html", "md", "csv", "junit",
                           default: "html")
        --out <file>       where to write it (default <run-dir>/report.<ext>; - for
                           stdout; with --episodes a folder, default <run-dir>/bundle)
        --episodes         with --format html: a static bundle, one folder with the
                           report and every episode's transcript, that opens from disk
                           with no network
        -h, --help         display help for command

      Usage: sandbox view [options] [dirs...]

      Open a local web viewer (127.0.0.1 only) of run folders: runs, plots, episodes,
      comparisons; updates live

      Arguments:
        dirs            run folders, or folders of runs (default: ["runs"])

      Options:
        --port <n>      port to listen on (default: a free one)
        --open          open the viewer in the default browser
        --store <file>  the results store (default: "runs/results.duckdb")
        -h, --help      display help for command
      "
    `);
  });
});
