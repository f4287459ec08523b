'use strict';

/**
 * serverless-offline runs our handlers in-process (`useInProcess`), which `require`s each
 * bundle once. serverless-esbuild rebuilds bundles when sources change and announces it with
 * `offline:functionsUpdated`; at that moment drop the old bundles from require's cache, so the
 * next request runs the new code. Local runs only: nothing here reaches AWS.
 */
class OfflineInProcessReload {
  constructor(serverless) {
    const workFolder = serverless.service.custom?.esbuild?.outputWorkFolder ?? '.esbuild';
    this.buildDir = require('node:path').resolve(serverless.config.servicePath, workFolder);
    this.hooks = { 'offline:functionsUpdated:cleanup': () => this.forgetBundles() };
  }

  forgetBundles() {
    for (const file of Object.keys(require.cache)) {
      if (file.startsWith(this.buildDir)) delete require.cache[file];
    }
  }
}

module.exports = OfflineInProcessReload;
