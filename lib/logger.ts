import { Logger } from '@aws-lambda-powertools/logger';

/** The one configured logger: structured JSON, level from POWERTOOLS_LOG_LEVEL (default INFO). */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'hark' });
