import { describe, expect, it } from 'vitest';
import { answerOf, commandsOf, differences, parseAnswer } from '../support/examples';

/** How the examples test reads a guide's shell block and the answers written beside it (docs/guide/testing.md "Examples"). */
const matches = (answer: string, output: string) => differences(parseAnswer(answer), answerOf(output)).length === 0;

describe('the examples test reads a shell block', () => {
  it('splits commands where the shell ends them: continuations, quotes over lines, $( ) with nested quotes', () => {
    const block = [
      `K='x'; B=http://localhost:3000/dev`,
      `curl -s -H "$K" $B/watcher -d '{"a":1,`,
      `  "b":2}'   # "id"`,
      `SVC=$(curl -s "$B/service" \\`,
      `  -d "$(node -pe '({id}=JSON.parse(process.argv[1]),id)' "$X")")`,
      `# prose about the next command`,
      `curl -s $B/providers`,
      `# {"configured":["webex"],`,
      `#   "providers":[...]}`,
      `# prose again`,
    ].join('\n');
    const commands = commandsOf(block);
    expect(commands.map((c) => c.line)).toEqual([1, 2, 4, 7]);
    expect(commands.map((c) => c.expected)).toEqual([undefined, '"id"', undefined, '{"configured":["webex"], "providers":[...]}']);
  });

  it('takes a comment that starts with a word as prose, not as an answer', () => {
    expect(commandsOf('curl -s $B/alarms   # open alarms, worst first')[0]!.expected).toBeUndefined();
  });
});

describe('an answer written beside a command', () => {
  it('matches exactly the fields shown, or more with "..."', () => {
    expect(matches('{"a":1,"b":"x"}', '{"a":1,"b":"x"}')).toBe(true);
    expect(matches('{"a":1}', '{"a":1,"b":"x"}')).toBe(false);
    expect(matches('{"a":1,...}', '{"a":1,"b":"x"}')).toBe(true);
    expect(matches('{"a":2,...}', '{"a":1,"b":"x"}')).toBe(false);
  });

  it('reads "..." in an array as any number of items there, and in a string as any text', () => {
    expect(matches('[...]', '[]')).toBe(true);
    expect(matches('[{"s":2},...]', '[{"s":2},{"s":3}]')).toBe(true);
    expect(matches('[{"s":2},...]', '[]')).toBe(false);
    expect(matches('[...,{"s":3},...]', '[{"s":2},{"s":3},{"s":1}]')).toBe(true);
    expect(matches('"HTTP/1.1 201...replayed: true..."', 'HTTP/1.1 201 Created\r\nidempotent-replayed: true\r\n')).toBe(true);
  });

  it('takes a figure marked ~ as of the moment: any number, or any text of the same shape', () => {
    expect(matches('{"MinorStatus":~43}', '{"MinorStatus":0}')).toBe(true);
    expect(matches('{"MinorStatus":43}', '{"MinorStatus":0}')).toBe(false);
    expect(matches('~"2026-12-01T21:00:00.000Z"', '"2027-03-28T20:00:00.000Z"')).toBe(true);
    expect(matches('~"2026-12-01T21:00:00.000Z"', '"next Tuesday"')).toBe(false);
    expect(matches('..', 'null')).toBe(true);
  });

  it('accepts any of the answers separated by |', () => {
    const either = '{"raised":~1,...} | {"message":"Another alarm evaluation is running; ..."}';
    expect(matches(either, '{"raised":3,"complete":true}')).toBe(true);
    expect(matches(either, '{"message":"Another alarm evaluation is running; retry in a few seconds"}')).toBe(true);
    expect(matches(either, '{"message":"Forbidden"}')).toBe(false);
  });

  it('refuses an answer it cannot read, naming where', () => {
    expect(() => parseAnswer('"access mode: user" when ready')).toThrow(/text after the answer at character 20/);
  });
});
