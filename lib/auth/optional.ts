import type { APIGatewayProxyEvent } from 'aws-lambda';
import { Forbidden, Unauthorized } from '#lib/errors';
import { signedIn } from './authenticate';

/** Who is named when nobody signed in: the API key is all the caller showed. */
export const API_KEY_ACTOR = 'api-key';

/**
 * The user behind a request that needs only the API key: the user of a bearer token when one
 * is sent and valid, else `api-key` (an invalid token is not an error here, it names nobody).
 */
export const actorOf = async (event: APIGatewayProxyEvent): Promise<string> => {
  if (!event.headers?.authorization) return API_KEY_ACTOR;
  try {
    return (await signedIn(event)).username;
  } catch (error) {
    if (error instanceof Unauthorized || error instanceof Forbidden) return API_KEY_ACTOR;
    throw error;
  }
};
