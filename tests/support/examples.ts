/**
 * The shell examples of the README and the guide, as the examples test runs them
 * (docs/guide/testing.md "Examples"): the blocks of a page, the commands of a block, and the
 * answer the text gives for a command, as a pattern an actual answer is compared with.
 */
import { readFileSync } from 'node:fs';

/** Fence languages that hold shell commands. */
const SHELL = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);

/**
 * Why a block is not run, and what it must contain to be allowed that reason: an exclusion is
 * written in the fence (```` ```sh no-run:deploy ````) and must match its kind.
 */
export const NOT_RUN: Record<string, { means: string; contains: RegExp }> = {
  deploy: { means: 'needs an AWS account and credentials (or packages for AWS)', contains: /^\s*(?:\w+=\S*\s+)*(?:aws |npm run (?:deploy|package)\b|npx serverless (?:deploy|remove|rollback)\b|\w+=\$\(aws )/m },
  setup: { means: 'installs the checkout or runs the test suite itself', contains: /^\s*npm (?:install|ci|test)\b/m },
  'external-store': { means: 'needs a store npm start does not run (Docker, LocalStack, an AWS table)', contains: /^\s*(?:\w+=\S*\s+)*DYNAMODB_ENDPOINT=\S+.*npm start\b/m },
};

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** `no-run:<kind>` of the fence, when the block is not run. */
  notRun?: string;
  text: string;
}

/** Every fenced block of a Markdown file (fences may be indented inside a list; the indentation is removed). */
export const blocksOf = (file: string): Block[] => {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', lang = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent.length));
    const notRun = /(?:^|\s)no-run:(\S+)/.exec(info)?.[1];
    blocks.push({ file, line: i + 1, lang, notRun, text: body.join('\n') });
    i = j;
  }
  return blocks;
};

export const shellBlocksOf = (file: string) => blocksOf(file).filter((block) => SHELL.has(block.lang));

export interface Command {
  /** The command as written (continuation lines included, comments kept). */
  text: string;
  /** 1-based line within the block where it starts. */
  line: number;
  /** The answer the text gives for it (a trailing `# …`, or the comment lines right after it). */
  expected?: string;
}

/** A comment that states an answer, not prose: JSON-like, a status code, or a time-dependent `~` figure. */
const ANSWER = /^(?:[{["~]|-?\d|true\b|false\b|null\b|\.\.\.|…)/;

/**
 * The commands of a block, split where the shell would end them (a newline outside quotes, `$(…)`
 * and line continuations), each with the answer the text gives beside it.
 */
export const commandsOf = (block: string): Command[] => {
  const lines = block.split('\n');
  const commands: Command[] = [];
  let current: { start: number; lines: string[]; trailing?: string } | undefined;
  // what the shell is inside at the end of a line: quotes, `$(…)` (with its own plain parentheses)
  const stack: ("'" | '"' | number)[] = [];
  let pendingAnswer: { command: Command; lines: string[] } | undefined;
  const closeAnswer = () => {
    if (pendingAnswer) pendingAnswer.command.expected = pendingAnswer.lines.join(' ');
    pendingAnswer = undefined;
  };
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (!current) {
      const comment = /^\s*#\s?(.*)$/.exec(line);
      if (comment) {
        const text = comment[1]!;
        const last = commands.at(-1);
        if (pendingAnswer && /^\s/.test(text)) pendingAnswer.lines.push(text.trim());
        else if (!pendingAnswer && last && !last.expected && commands.at(-1) === last && ANSWER.test(text.trim()) && lastWasCommand(lines, n)) {
          pendingAnswer = { command: last, lines: [text.trim()] };
        } else closeAnswer();
        continue;
      }
      closeAnswer();
      if (!line.trim()) continue;
      current = { start: n + 1, lines: [] };
    }
    let trailing: string | undefined;
    let continued = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      const top = stack.at(-1);
      if (top === "'") {
        if (c === "'") stack.pop();
      } else if (c === '\\') {
        if (i === line.length - 1) continued = true;
        i++;
      } else if (top === '"') {
        if (c === '"') stack.pop();
        else if (c === '$' && line[i + 1] === '(') (stack.push(0), i++);
      } else if (c === "'" || c === '"') stack.push(c);
      else if (c === '$' && line[i + 1] === '(') (stack.push(0), i++);
      else if (typeof top === 'number' && c === '(') stack[stack.length - 1] = top + 1;
      else if (typeof top === 'number' && c === ')') {
        if (top === 0) stack.pop();
        else stack[stack.length - 1] = top - 1;
      } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
        if (top === undefined) {
          trailing = line.slice(i + 1).trim();
          break;
        }
        // a comment inside `$(…)` ends at the line's end
        break;
      }
    }
    current.lines.push(line);
    if (stack.length || continued) continue;
    const command: Command = { text: current.lines.join('\n'), line: current.start };
    if (trailing && ANSWER.test(trailing)) command.expected = trailing;
    commands.push(command);
    current = undefined;
  }
  closeAnswer();
  if (current) throw new Error(`an unterminated command at line ${current.start}: ${current.lines.join('\n')}`);
  return commands;
};

/** Whether the line before `n` ends a command (not a comment or a blank line): an answer follows its command at once. */
const lastWasCommand = (lines: string[], n: number) => n > 0 && !/^\s*(?:#.*)?$/.test(lines[n - 1]!);

// ---- answers: JSON with `...` (more here), `..` (any value) and `~` (a figure of the moment) ----

export type Pattern =
  | { kind: 'any' }
  | { kind: 'more' }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'number' }
  | { kind: 'text'; regex: RegExp; shown: string }
  | { kind: 'object'; fields: [string, Pattern][]; open: boolean }
  | { kind: 'array'; items: Pattern[] }
  | { kind: 'either'; options: Pattern[] };

/**
 * Reads an answer as the text writes it: JSON, where `...` (or `…`) inside an object or array
 * stands for more fields or items, inside a string for any text; `..` for any value; and `~`
 * before a figure marks it as of the moment: `~43` any number, `~"2026-12-01T21:00:00.000Z"` any
 * text of that shape (each run of digits any digits). Answers that may each come are separated by
 * ` | ` (`{"raised":~3,...} | {"message":"Another alarm evaluation is running; ..."}`).
 */
export const parseAnswer = (source: string): Pattern => {
  let at = 0;
  const text = source.replace(/…/g, '...');
  const fail = (what: string): never => {
    throw new Error(`answer ${JSON.stringify(source)}: ${what} at character ${at}`);
  };
  const space = () => {
    while (/\s/.test(text[at] ?? '')) at++;
  };
  const stringAt = (): string => {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at));
    if (!end) return fail('an unterminated string');
    at += end[0].length;
    return JSON.parse(end[0]) as string;
  };
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const value = (): Pattern => {
    space();
    if (text.startsWith('...', at)) return (at += 3, { kind: 'more' });
    if (text.startsWith('..', at)) return (at += 2, { kind: 'any' });
    if (text[at] === '~') {
      at++;
      if (text[at] === '"') {
        const shown = stringAt();
        const regex = new RegExp(`^${shown.split('...').map((part) => escape(part).replace(/\d+/g, '\\d+')).join('[\\s\\S]*')}$`);
        return { kind: 'text', regex, shown: `~${JSON.stringify(shown)}` };
      }
      const number = /^-?\d+(?:\.\d+)?/.exec(text.slice(at));
      if (!number) return fail('~ before something that is no figure');
      at += number[0].length;
      return { kind: 'number' };
    }
    if (text[at] === '"') {
      const s = stringAt();
      if (!s.includes('...')) return { kind: 'literal', value: s };
      return { kind: 'text', regex: new RegExp(`^${s.split('...').map(escape).join('[\\s\\S]*')}$`), shown: JSON.stringify(s) };
    }
    if (text[at] === '{') {
      at++;
      const fields: [string, Pattern][] = [];
      let open = false;
      for (;;) {
        space();
        if (text[at] === '}') return (at++, { kind: 'object', fields, open });
        if (text.startsWith('...', at)) (at += 3, (open = true));
        else {
          if (text[at] !== '"') fail('a field name');
          const key = stringAt();
          space();
          if (text[at++] !== ':') fail('":"');
          fields.push([key, value()]);
        }
        space();
        if (text[at] === ',') at++;
        else if (text[at] !== '}') fail('"," or "}"');
      }
    }
    if (text[at] === '[') {
      at++;
      const items: Pattern[] = [];
      for (;;) {
        space();
        if (text[at] === ']') return (at++, { kind: 'array', items });
        items.push(value());
        space();
        if (text[at] === ',') at++;
        else if (text[at] !== ']') fail('"," or "]"');
      }
    }
    const literal = /^(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null)/.exec(text.slice(at));
    if (!literal) return fail('a value');
    at += literal[0].length;
    return { kind: 'literal', value: JSON.parse(literal[0]) as number | boolean | null };
  };
  const options = [value()];
  space();
  while (text[at] === '|') {
    at++;
    options.push(value());
    space();
  }
  if (at < text.length) fail('text after the answer');
  return options.length === 1 ? options[0]! : { kind: 'either', options };
};

/** Where `actual` differs from `pattern` (empty when it matches). */
export const differences = (pattern: Pattern, actual: unknown, path = '$'): string[] => {
  const show = (v: unknown) => JSON.stringify(v)?.slice(0, 200);
  switch (pattern.kind) {
    case 'any':
    case 'more':
      return [];
    case 'literal':
      return actual === pattern.value ? [] : [`${path}: ${show(actual)}, the text says ${show(pattern.value)}`];
    case 'number':
      return typeof actual === 'number' ? [] : [`${path}: ${show(actual)}, the text says a number`];
    case 'text':
      return typeof actual === 'string' && pattern.regex.test(actual) ? [] : [`${path}: ${show(actual)}, the text says ${pattern.shown}`];
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return [`${path}: ${show(actual)}, the text says an object`];
      const record = actual as Record<string, unknown>;
      const found = pattern.fields.flatMap(([key, value]) =>
        key in record ? differences(value, record[key], `${path}.${key}`) : [`${path}.${key}: missing, the text shows it`],
      );
      const extra = pattern.open ? [] : Object.keys(record).filter((key) => !pattern.fields.some(([shown]) => shown === key));
      return [...found, ...extra.map((key) => `${path}.${key}: not shown by the text (add it, or "..." for more fields)`)];
    }
    case 'array': {
      if (!Array.isArray(actual)) return [`${path}: ${show(actual)}, the text says an array`];
      return arrayDifferences(pattern.items, actual, path);
    }
    case 'either': {
      const each = pattern.options.map((option) => differences(option, actual, path));
      return each.some((found) => found.length === 0) ? [] : each.flat();
    }
  }
};

/** Items in order; `...` stands for any number of items there. */
const arrayDifferences = (items: Pattern[], actual: unknown[], path: string): string[] => {
  const fits = (p: number, a: number): boolean => {
    if (p === items.length) return a === actual.length;
    if (items[p]!.kind === 'more') return fits(p + 1, a) || (a < actual.length && fits(p, a + 1));
    return a < actual.length && differences(items[p]!, actual[a], `${path}[${a}]`).length === 0 && fits(p + 1, a + 1);
  };
  if (fits(0, 0)) return [];
  // name the first item that differs, for the failure message
  const shown = items.filter((item) => item.kind !== 'more');
  for (let i = 0; i < shown.length; i++) {
    const found = differences(shown[i]!, actual[i], `${path}[${i}]`);
    if (found.length) return found;
  }
  return [`${path}: ${actual.length} items, the text says ${shown.length}${items.some((item) => item.kind === 'more') ? ' or more' : ''}: ${JSON.stringify(actual).slice(0, 200)}`];
};

/** What a command printed, as the text's answer compares it: JSON when it parses, the trimmed text otherwise. */
export const answerOf = (output: string): unknown => {
  const trimmed = output.trim();
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return trimmed;
  }
};
