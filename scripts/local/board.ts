/**
 * The status board (board/): one esbuild bundle of board/src/main.ts plus the page and its
 * stylesheet. `npm start` serves it at http://localhost:${DOCS_PORT}/board/ with a config.json
 * naming the running API; `npm run build:board` writes it to dist/board/ for a static host.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(__dirname, '..', '..');
const boardDir = join(root, 'board');

export interface Asset {
  type: string;
  body: string;
}

export interface BoardConfig {
  apiUrl: string;
  apiKey: string;
  pollSeconds?: number;
}

/** The board's files by name (config.json excluded: it belongs to whoever hosts the board). */
export const boardAssets = async (): Promise<Record<string, Asset>> => {
  const bundle = await build({
    entryPoints: [join(boardDir, 'src', 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  return {
    'index.html': { type: 'text/html; charset=utf-8', body: readFileSync(join(boardDir, 'index.html'), 'utf8') },
    'board.css': { type: 'text/css', body: readFileSync(join(boardDir, 'board.css'), 'utf8') },
    // linked from the page, so the browser asks for no /favicon.ico the host may not have
    'favicon.svg': { type: 'image/svg+xml', body: readFileSync(join(boardDir, 'favicon.svg'), 'utf8') },
    'board.js': { type: 'text/javascript', body: bundle.outputFiles[0]!.text },
  };
};

export const configFile = (config: BoardConfig): Asset => ({ type: 'application/json', body: `${JSON.stringify(config, null, 2)}\n` });
