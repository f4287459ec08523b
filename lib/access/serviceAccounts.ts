import { rotateServiceSecret, type NewService, type Service } from '#lib/access/repository/services';
import { storeService } from './membership';
import { newServiceSecret } from './serviceSecrets';

/**
 * Registered services as principals (DESIGN §5): a client secret is made here, answered once
 * (registration, rotation) and stored only as its hash; no other answer or log line carries it.
 */

/** A service as registration and rotation answer it: with the client secret, this once. */
type ServiceWithSecret = Service & { secret: string };

export const registerService = async (service: NewService): Promise<ServiceWithSecret> => {
  const { secret, hash } = newServiceSecret();
  return { ...(await storeService(service, hash)), secret };
};

/** A new secret and a new incarnation in one write: the old secret and every token issued before stop working. */
export const rotateSecret = async (id: string): Promise<ServiceWithSecret> => {
  const { secret, hash } = newServiceSecret();
  return { ...(await rotateServiceSecret(id, hash)), secret };
};
