import { generateKeyPairSync } from 'node:crypto';

// Imported by a test file before any module that reads them: a fresh ed25519 token key pair and
// cheap password hashes (the production cost is a unit test). Each test file has its own.
const keyPair = generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
Object.assign(process.env, { JWT_PRIVATE_KEY: keyPair.privateKey, JWT_PUBLIC_KEY: keyPair.publicKey, PASSWORD_SCRYPT_LOG_N: '12' });
