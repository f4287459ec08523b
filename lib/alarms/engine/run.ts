import type { Mailer } from '#lib/notify/mail/types';
import { fullPass } from './fullPass';
import { runPasses, type RunMode, type RunOutcome } from './runPasses';

/**
 * One run of the evaluator as `mode` says (runPasses.ts), the full pass included: the functions
 * that run `forced` or `scheduled` bundle it; those that only run the queue call runQueue.
 */
export const runEvaluation = (options: RunMode & { mailer: Mailer; budgetMs?: number }): Promise<RunOutcome> => runPasses(options, fullPass);
