// Provider credentials on AWS: one Secrets Manager secret holding a JSON object of Hark variables (the link key,
// SMTP URL, Twilio auth token, …). The stack passes only the secret's ARN (HARK_SECRETS_ARN); a function that
// sends or verifies messages reads it once per cold start, before the configuration is parsed.
// docs/notifications.md, "On AWS".
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { reloadConfig, VARIABLE_NAMES } from '../config.ts';

/**
 * The variables a secret's JSON may set: Hark's own variables only (never AWS_*, never the wiring the stack sets),
 * each a string, and never one the function's environment already sets.
 */
export function variablesOfSecret(secretString: string, environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(secretString);
  } catch {
    throw new Error('The secret of HARK_SECRETS_ARN must be a JSON object of Hark variables');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The secret of HARK_SECRETS_ARN must be a JSON object of Hark variables');
  const known = new Set<string>(VARIABLE_NAMES.filter((name) => name.startsWith('HARK_') && name !== 'HARK_TABLE_NAME' && !name.endsWith('_QUEUE_URL')));
  const chosen: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (!known.has(name)) throw new Error(`The secret of HARK_SECRETS_ARN names ${name}, which is not a variable it may set`);
    if (typeof value !== 'string') throw new Error(`The secret of HARK_SECRETS_ARN must give ${name} as a string`);
    if (environment[name] === undefined && value !== '') chosen[name] = value;
  }
  return chosen;
}

let loaded: Promise<void> | undefined;

/** Reads the secret named by HARK_SECRETS_ARN into the environment once; nothing to do when it is unset (locally). */
export function loadSecrets(environment: NodeJS.ProcessEnv = process.env): Promise<void> {
  const arn = environment.HARK_SECRETS_ARN;
  if (!arn) return Promise.resolve();
  loaded ??= (async () => {
    const client = new SecretsManagerClient({});
    const answer = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    Object.assign(environment, variablesOfSecret(answer.SecretString ?? '{}', environment));
    reloadConfig();
  })();
  return loaded;
}

/** The JSON object a secret holds (the canary's key, docs/deploy.md "Check it pages"); the caller picks its fields. */
export async function secretObject(arn: string): Promise<Record<string, unknown>> {
  const answer = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  const parsed: unknown = JSON.parse(answer.SecretString ?? '{}');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The secret must be a JSON object');
  return parsed as Record<string, unknown>;
}
