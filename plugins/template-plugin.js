'use strict';

/**
 * The common head of the plugins that rewrite the compiled CloudFormation template before it is
 * written (package and deploy; offline never packages, so it is untouched): a subclass defines
 * `rewrite(template)`, and `fail(message)` stops packaging with the framework's error.
 */
class TemplatePlugin {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'before:package:finalize': () => this.rewrite(serverless.service.provider.compiledCloudFormationTemplate) };
  }

  fail(message) {
    throw new this.serverless.classes.Error(message);
  }
}

module.exports = TemplatePlugin;
