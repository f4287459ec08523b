/**
 * `npm test` begins here: Java 17+ (DynamoDB Local, the store every store-backed test runs on)
 * is checked before the build, so a machine without it stops at once with one line saying
 * what to install.
 */
import { javaProblem } from './local/java';

const problem = javaProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}
