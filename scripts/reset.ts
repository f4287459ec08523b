/** `npm run reset`: forget all local data (the embedded store's files under .data/). */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

const dataDir = resolve(__dirname, '..', '.data');
rmSync(dataDir, { recursive: true, force: true });
console.log(`removed ${dataDir}; the next npm start begins with an empty store`);
