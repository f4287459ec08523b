'use strict';

/**
 * serverless-esbuild, except under `serverless offline`: there handlers run from their
 * TypeScript sources (plugins/offline-in-process-reload.js), and not loading the bundler at all
 * saves seconds of every local start (serverless-esbuild and its dependencies take about
 * 1.5 s of CPU to load, bundling ~80 functions one by one took about 30 s on two cores).
 * `serverless package` and `deploy` get serverless-esbuild itself, unchanged.
 */
const isOffline = (serverless) => serverless.processedInput?.commands?.[0] === 'offline';

class EsbuildUnlessOffline {
  constructor(serverless, options, utils) {
    if (isOffline(serverless)) {
      this.hooks = {};
      return;
    }
    const EsbuildServerlessPlugin = require('serverless-esbuild');
    // a constructor may return another object: the framework then holds serverless-esbuild itself
    return new EsbuildServerlessPlugin(serverless, options, utils);
  }
}

module.exports = EsbuildUnlessOffline;
