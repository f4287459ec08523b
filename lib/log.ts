import { Logger } from '@aws-lambda-powertools/logger';

// One structured JSON logger per container. Level comes from POWERTOOLS_LOG_LEVEL / LOG_LEVEL
// (set per stage in serverless.yml). Never pass request bodies, passwords or tokens to it.
export const logger = new Logger({ serviceName: process.env.SERVICE_NAME ?? 'device-monitoring' });
