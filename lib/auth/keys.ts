import { secret } from './secrets';
import { signingKey } from './tokens';

let key: Promise<Uint8Array> | undefined;

/** The HS256 key: JWT_SECRET (local: generated once by npm start) or the SSM parameter JWT_SECRET_PARAM. */
export const tokenKey = (): Promise<Uint8Array> => {
  key ??= secret('JWT_SECRET').then((value) => {
    if (!value) throw new Error('JWT_SECRET or JWT_SECRET_PARAM must be set');
    return signingKey(value);
  });
  key.catch(() => (key = undefined));
  return key;
};
