import { describe, expect, it } from 'vitest';
import { chatWiseContext } from '../../../src/graders/ddr-bench-judge.ts';
import { pythonFormat } from '../../../src/graders/python-format.ts';
import { agentSystemPrompt, agentTask, getPrompts, insightPrompts } from '../../../src/import/ddr-bench/read-python.ts';
import type { TrajectoryEvent } from '../../../src/schemas/event.ts';

describe("Python's str.format, as DDR-Bench fills its templates", () => {
  it('fills named fields, unescapes doubled braces, ignores fields not named (Python ignores extra keyword arguments)', () => {
    expect(pythonFormat('{{"k": 1}} {question}? {answer}', { question: 'Why', answer: '{x}', unused: 'u' })).toBe('{"k": 1} Why? {x}');
  });
  it('refuses what Python refuses or what it would fill otherwise: a missing field, a lone brace, a conversion, a spec', () => {
    expect(() => pythonFormat('{context}', {})).toThrow(/\{context\} is not one DDR-Bench fills/);
    expect(() => pythonFormat('a } b', {})).toThrow(/lone "\}"/);
    expect(() => pythonFormat('{a!r}', { a: '1' })).toThrow(/not a plain name/);
    expect(() => pythonFormat('{a:>5}', { a: '1' })).toThrow(/not a plain name/);
  });
});

const PROMPTS = `X_SYS = """sys\\tline"""
X_USER = '''user {question}'''
R_RAW = r"""raw \\n kept"""

def get_prompts(scenario: str) -> dict:
    if scenario == "mimic":
        return {"chat_system": X_SYS, "chat_user": X_USER}
    elif scenario == "10k":
        return {"chat_system": R_RAW, "chat_user": NOT_A_CONSTANT}
`;

describe("reading DDR-Bench's Python (the shapes of evaluate/prompts.py, agent/prompt_manager.py, run_agent.py)", () => {
  it('get_prompts: constants with their escapes (raw strings kept raw), use_qa_accuracy False when absent', () => {
    const { prompts, useQaAccuracy } = getPrompts('p.py', PROMPTS, 'mimic');
    expect(Object.fromEntries(prompts)).toEqual({ chat_system: 'sys\tline', chat_user: 'user {question}' });
    expect(useQaAccuracy).toBe(false);
  });
  it('get_prompts refuses a name that is not a string constant, and a scenario without a branch, in one line naming the file', () => {
    expect(() => getPrompts('p.py', PROMPTS, '10k')).toThrow('p.py: get_prompts("10k")["chat_user"] names NOT_A_CONSTANT, which is not a string constant of the module');
    expect(() => getPrompts('p.py', PROMPTS, 'globem')).toThrow('p.py: get_prompts() has no branch for scenario "globem" returning a dict');
  });

  const MANAGER = (extra: string) => `class PromptManager:
    def __init__(self):
        self.base = """B"""
        self.fin = "F\\n"

    def build_system_prompt_with_task(self, task: str) -> str:
        enhanced_prompt = self.base
        if self.auto_finish:
            enhanced_prompt += self.fin
        enhanced_prompt += f"T={task} {{x}}"
${extra}        return enhanced_prompt

    def other(self):
        return 1
`;
  it('build_system_prompt_with_task: attributes and f-strings in order, braces unescaped; any other statement refused', () => {
    expect(agentSystemPrompt('m.py', MANAGER(''), 'Go')).toBe('BF\nT=Go {x}');
    expect(() => agentSystemPrompt('m.py', MANAGER('        enhanced_prompt += task.upper()\n'), 'Go')).toThrow(
      'm.py: build_system_prompt_with_task() appends an expression this import does not read: task.upper()',
    );
    expect(() => agentSystemPrompt('m.py', MANAGER('        print(enhanced_prompt)\n'), 'Go')).toThrow(/has a statement this import does not read: print\(enhanced_prompt\)/);
  });
  const INSIGHTS = (body: string) => `class PromptManager:
    def build_insight_prompt(self, why: str, got: str, goal: str) -> str:
        """Build prompt"""
        # a comment
${body}

    def get_insight_system_prompt(self) -> str:
        return "Sys {not a field}"
`;
  it('the insight prompts: the system string as is; build_insight_prompt\'s f-string with its fields named by position (data_agent.py passes them so)', () => {
    // The f-string's own lines start at column 0, as DDR-Bench's do; {{ }} stay doubled (a str.format template now).
    expect(insightPrompts('m.py', INSIGHTS('        return f"""Goal {goal}\nWhy {why}\nGot {got} {{k}}"""'))).toEqual({
      system: 'Sys {not a field}',
      user: 'Goal {task}\nWhy {assistant_content}\nGot {user_content} {{k}}',
    });
    expect(() => insightPrompts('m.py', INSIGHTS('        return f"{why.upper()}"'))).toThrow('m.py: build_insight_prompt() formats {why.upper()}, not one of its parameters');
    expect(() => insightPrompts('m.py', INSIGHTS('        text = f"{why}"\n        return text'))).toThrow('m.py: build_insight_prompt() is not one "return <string>" statement');
    expect(() => insightPrompts('m.py', INSIGHTS('        return "a"\n        print(1)'))).toThrow('m.py: build_insight_prompt() is not one "return <string>" statement');
  });
  it("run_agent.py: the scenario's analyzer's task f-string with the entity in its field", () => {
    const runner = 'class PatientBatchAnalyzer(B):\n    def p(self):\n        task = f"Look at patient {sid} now"\n\ndef main():\n    if args.scenario == "mimic":\n        analyzer = PatientBatchAnalyzer(x)\n';
    expect(agentTask('r.py', runner, 'mimic', '42')).toBe('Look at patient 42 now');
    expect(() => agentTask('r.py', runner, '10k', '42')).toThrow('r.py: main() picks no analyzer for scenario "10k"');
  });
});

const response = (content: string): TrajectoryEvent => ({ type: 'model-response', message: { role: 'assistant', content } }) as unknown as TrajectoryEvent;

describe("DDR-Bench's chat-wise context (data_agent.py _get_final_agent_summary, base_evaluator.py clean_final_summary)", () => {
  it('the last message containing FINISH, whole, cut before the first line with "- INFO -"', () => {
    const events = [response('FINISH: early'), response('more FINISH: late\nsecond line\n2026 - INFO - log\nafter'), response('trailing words')];
    expect(chatWiseContext(events)).toEqual({ context: 'more FINISH: late\nsecond line', index: 1 });
  });
  it('no FINISH: the last non-empty message; nothing said: no context (DDR-Bench leaves the entity out)', () => {
    expect(chatWiseContext([response('a'), response('b'), response('')])).toEqual({ context: 'b', index: 1 });
    expect(chatWiseContext([response('')])).toBeNull();
  });
});
