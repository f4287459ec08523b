'use strict';

/**
 * Local runs only (`serverless offline`); nothing here reaches AWS or `serverless package`.
 *
 * Handlers run from their TypeScript sources: serverless-offline loads a `.ts` handler through
 * tsx (with tsconfig's path aliases), in-process (`useInProcess`), one module graph shared by
 * every function, so a start no longer waits for ~80 bundles (plugins/esbuild-unless-offline.js).
 * Hot reload: when a source under functions/, lib/ or generated/ changes, the project's own
 * modules are dropped from require's cache and the next request loads the new code
 * (node_modules stay loaded).
 * Never outliving `npm start`: the server exits when the IPC channel to its parent closes.
 */
const { watch } = require('node:fs');
const { resolve, sep } = require('node:path');

const SOURCE_FOLDERS = ['functions', 'lib', 'generated'];

class OfflineInProcessReload {
  constructor(serverless) {
    this.serverless = serverless;
    const root = serverless.config.servicePath;
    this.sourceDirs = SOURCE_FOLDERS.map((folder) => resolve(root, folder));
    this.watchers = [];
    // started by `npm start` (scripts/local/offline.ts) with an IPC channel: when that process is
    // gone (Ctrl-C, a kill, a crash), the channel closes and this server goes with it
    if (typeof process.send === 'function') process.once('disconnect', () => process.exit(0));
    this.hooks = {
      'offline:start:init': () => this.watchSources(),
      'offline:start:end': () => this.watchers.forEach((w) => w.close()),
    };
  }

  watchSources() {
    for (const dir of this.sourceDirs) {
      const watcher = watch(dir, { recursive: true }, (_event, file) => {
        if (file && /\.(ts|json)$/.test(file)) this.forgetSources();
      });
      watcher.unref();
      this.watchers.push(watcher);
    }
  }

  forgetSources() {
    for (const key of Object.keys(require.cache)) {
      // tsx keys its modules as `<file>?namespace=<id>`
      const file = key.split('?')[0];
      if (this.sourceDirs.some((dir) => file.startsWith(dir + sep))) delete require.cache[key];
    }
  }
}

module.exports = OfflineInProcessReload;
