import type { APIGatewayProxyEvent } from 'aws-lambda';
import { HttpError } from '#lib/shared/errors';
import type { AuthEvent } from '#lib/access/audit/types';
import { recordAuthEvent } from './log';

/**
 * A name typed at sign-in or token exchange that names nobody is recorded as this, never as
 * typed: people type their password into the username field, and a client that swaps id and
 * secret sends its secret as the id (CloudTrail hides such names for the same reason; docs/guide/rules/access.md "Refused tokens are recorded by functions that may write; read-only ones log them").
 */
export const UNKNOWN_PRINCIPAL = '(unknown)';

/** Who an authentication step names, and how to tell whether that principal exists. */
interface AuthSubject {
  kind: 'user' | 'service';
  id: string;
  exists: () => Promise<boolean>;
}

/**
 * Runs an authentication step (sign-in, token exchange) and stores its outcome in the audit log
 * before answering: `succeeded` when it answers, the event `refused` names for an error it
 * refuses with (others are not authentication outcomes). A failure that could not be recorded
 * answers 503 instead of 401 or 429.
 */
export const withAuthOutcome = async <A>(
  request: APIGatewayProxyEvent,
  subject: AuthSubject,
  events: { succeeded: AuthEvent; refused: (error: unknown) => AuthEvent | undefined },
  step: () => Promise<A>,
): Promise<A> => {
  const record = async (event: AuthEvent, status: number, known: boolean) => {
    const id = known ? subject.id : UNKNOWN_PRINCIPAL;
    await recordAuthEvent(request, { event, actor: { kind: subject.kind, id }, target: { type: subject.kind, id }, status });
  };
  let answer: A;
  try {
    answer = await step();
  } catch (error) {
    const refusal = events.refused(error);
    if (refusal) await record(refusal, error instanceof HttpError ? (error.statusCode ?? 401) : 401, await subject.exists());
    throw error;
  }
  await record(events.succeeded, 200, true);
  return answer;
};
