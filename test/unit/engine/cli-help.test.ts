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
        --model <spec>        reference, scripted:<file>, replay:<trajectory>, human,
                              openai:<model>, anthropic:<model>,
                              openai-compatible:<url>#<model> (default: reference)
        --out <dir>           where the trajectory goes (<dir>/<task>.0.jsonl)
                              (default: "runs/episode")
        --enforcement <mode>  block: apply verdicts; observe: record only; off: no
                              checks (choices: "block", "observe", "off", default:
                              "block")
        --execute             plan tasks: also execute the accepted plan
        --seed <n>            seed recorded with the run (default: "0")
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
        trajectory|run-dir  a trajectory file or a run directory

      Options:
        --json              print the scores as JSON
        -h, --help          display help for command

      Usage: sandbox tasks [options]

      List tasks with style, domain and counts

      Options:
        --suite <dir|glob>  a directory of task files or a glob (default: every task
                            under episodes/)
        --json              print as JSON
        -h, --help          display help for command
      "
    `);
  });
});
