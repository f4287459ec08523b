/**
 * Java, which the embedded store (DynamoDB Local) runs on: found on PATH, version 17 or later.
 * `npm start` and `npm test` check it before anything else and stop with one line saying what
 * is missing and how to install it, never a stack trace.
 */
import { spawnSync } from 'node:child_process';

export const MINIMUM_JAVA = 17;

const HOW_TO_INSTALL =
  'install Java 17 or later: `sudo apt-get install openjdk-17-jre-headless` (Debian/Ubuntu), `brew install openjdk@17` (macOS), `winget install Microsoft.OpenJDK.17` or `choco install openjdk17` (Windows)';

/** The major version in `java -version`'s first line: `openjdk version "17.0.15"` -> 17, `java version "1.8.0_402"` -> 8. */
export const javaMajor = (versionOutput: string): number | undefined => {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
};

/**
 * What is wrong with this machine's Java, in one line, or undefined when `java` on PATH is 17+.
 * `env` is the environment whose PATH is searched (tests pass one without Java).
 */
export const javaProblem = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const run = spawnSync('java', ['-version'], { env, encoding: 'utf8', timeout: 30_000 });
  if (run.error || run.status !== 0) {
    return `Java is missing (no working \`java\` on PATH); the embedded DynamoDB Local needs it: ${HOW_TO_INSTALL}`;
  }
  const output = `${run.stderr}${run.stdout}`;
  const major = javaMajor(output);
  if (major === undefined) return `Java's version could not be read from \`java -version\` (${output.split('\n')[0]?.trim()}); ${HOW_TO_INSTALL}`;
  if (major < MINIMUM_JAVA) return `Java ${major} is too old: the embedded DynamoDB Local needs Java ${MINIMUM_JAVA} or later; ${HOW_TO_INSTALL}`;
  return undefined;
};

/** Thrown when Java is missing or too old; its message is the one line to print. */
export class JavaMissing extends Error {
  override name = 'JavaMissing';
}

/** Throws JavaMissing unless `java` on PATH is 17 or later. */
export const requireJava = (env: NodeJS.ProcessEnv = process.env): void => {
  const problem = javaProblem(env);
  if (problem) throw new JavaMissing(problem);
};
