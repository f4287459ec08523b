/**
 * `npm run build:board [-- <folder>]`: the status board as static files (default dist/board/)
 * for any static host. Edit config.json there: apiUrl (with the stage) and apiKey. An existing
 * config.json is kept; the first build writes the local defaults of board/config.example.json.
 * The board's origin must be in the API's CORS_ORIGINS.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { boardAssets } from './local/board';

const root = resolve(__dirname, '..');

const main = async () => {
  const out = resolve(process.argv[2] ?? join(root, 'dist', 'board'));
  mkdirSync(out, { recursive: true });
  for (const [name, asset] of Object.entries(await boardAssets())) writeFileSync(join(out, name), asset.body);
  const config = join(out, 'config.json');
  if (!existsSync(config)) copyFileSync(join(root, 'board', 'config.example.json'), config);
  console.log(`status board written to ${out} (edit ${config}: apiUrl, apiKey)`);
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
