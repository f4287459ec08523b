import type { Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';

// One structured JSON logger per container. Level comes from POWERTOOLS_LOG_LEVEL / LOG_LEVEL
// (set per stage in serverless.yml). Never pass request bodies, passwords or tokens to it.
//
// The Powertools logger is loaded on the first log call, from the Powertools layer (not the
// bundle): bundled it weighed ~24 KB of every function (DESIGN §8 caps bundles at 1.2x the
// floor), and no function logs while it loads. `require` keeps the first call synchronous.
let loaded: Logger | undefined;
const powertools = (): Logger => {
  if (!loaded) {
    const { Logger: PowertoolsLogger } = require('@aws-lambda-powertools/logger') as typeof import('@aws-lambda-powertools/logger');
    loaded = new PowertoolsLogger({ serviceName: process.env.SERVICE_NAME ?? 'device-monitoring' });
  }
  return loaded;
};

type Attributes = LogAttributes;
export const logger = {
  debug: (message: string, attributes: Attributes = {}) => powertools().debug(message, attributes),
  info: (message: string, attributes: Attributes = {}) => powertools().info(message, attributes),
  warn: (message: string, attributes: Attributes = {}) => powertools().warn(message, attributes),
  error: (message: string, attributes: Attributes = {}) => powertools().error(message, attributes),
  /** The Lambda context's fields (request id, function) on every line of this invocation. */
  addContext: (context: Context) => powertools().addContext(context),
};
