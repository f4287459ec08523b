import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  DependsOn?: string | string[];
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value?: unknown; Description?: string }>;
}

const root = resolve(__dirname, '..', '..');

/** Everything a package is made from; equal sources give an equal template. */
const SOURCES = ['serverless.yml', 'package.json', 'tsconfig.json', 'resources', 'plugins', 'functions', 'lib', 'schemas', 'generated'];
const sourceHash = (): string => {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) add(join(path, entry));
    else hash.update(relative(root, path)).update(readFileSync(path));
  };
  for (const source of SOURCES) add(join(root, source));
  hash.update(JSON.stringify(['MAIL_FROM', 'ALARM_EMAIL', 'AWS_REGION'].map((name) => process.env[name])));
  return hash.digest('hex').slice(0, 16);
};

const templateFile = (dir: string) => join(dir, 'cloudformation-template-update-stack.json');

/**
 * The packaged template of `stage`, reused while the sources are unchanged: several test
 * files read it, and one packaging takes a minute or two on this machine. `syntheticRoutes`
 * adds that many routes (resources/synthetic-routes.js) to measure what one more costs.
 */
export const packageStage = async (stage: string, { syntheticRoutes = 0 }: { syntheticRoutes?: number } = {}): Promise<CfnTemplate> => {
  const cached = join(tmpdir(), `package-${stage}${syntheticRoutes ? `-synthetic${syntheticRoutes}` : ''}-${sourceHash()}`);
  if (!existsSync(templateFile(cached))) {
    const out = `${cached}.${process.pid}`;
    mkdirSync(out, { recursive: true });
    await packageInto(stage, out, syntheticRoutes);
    if (!existsSync(templateFile(cached))) renameSync(out, cached);
  }
  return JSON.parse(readFileSync(templateFile(cached), 'utf8')) as CfnTemplate;
};

/** `serverless package --stage <stage>` with no AWS credentials in the environment. */
const packageInto = async (stage: string, out: string, syntheticRoutes: number): Promise<void> => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ESBUILD_WORK_FOLDER: `.esbuild-package-${stage}${syntheticRoutes ? `-synthetic${syntheticRoutes}` : ''}`,
    SLS_TELEMETRY_DISABLED: '1',
    SYNTHETIC_ROUTES: String(syntheticRoutes),
  };
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'API_KEY', 'JWT_PUBLIC_KEY']) delete env[name];
  await promisify(execFile)(
    process.execPath,
    [join(root, 'node_modules/serverless/bin/serverless.js'), 'package', '--stage', stage, '--package', out],
    { cwd: root, env, maxBuffer: 10 * 1024 * 1024 },
  );
};

export const resourcesOfType = (template: CfnTemplate, type: string) =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type);

/** An operation of the REST API's OpenAPI body (plugins/openapi-rest-api.js). */
export interface ApiOperation {
  method: string;
  /** As declared in the body, e.g. `/alarms/{id}/ack` */
  path: string;
  keyRequired: boolean;
  /** Logical id of the function the Lambda proxy integration invokes */
  target: string;
  integration: { type: string; httpMethod: string; uri: unknown; credentials?: unknown };
}

/** Every operation the REST API's OpenAPI body declares, OPTIONS included. */
export const apiOperations = (template: CfnTemplate): ApiOperation[] => {
  const body = template.Resources.ApiGatewayRestApi?.Properties?.Body as { paths: Record<string, Record<string, unknown>> } | undefined;
  if (!body) throw new Error('the REST API has no OpenAPI body');
  return Object.entries(body.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'parameters')
      .map(([method, operation]) => {
        const { security, 'x-amazon-apigateway-integration': integration } = operation as { security?: Record<string, unknown>[]; 'x-amazon-apigateway-integration': ApiOperation['integration'] };
        const target = /\$\{(\w+)\.Arn\}/.exec(JSON.stringify(integration.uri))?.[1] ?? '';
        return { method: method.toUpperCase(), path, keyRequired: (security ?? []).some((s) => 'api_key' in s), target, integration };
      }),
  );
};
