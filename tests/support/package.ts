import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
}

const root = resolve(__dirname, '..', '..');

/**
 * `serverless package --stage <stage>` with no AWS credentials in the environment,
 * answering the generated CloudFormation template.
 */
export const packageStage = async (stage: string): Promise<CfnTemplate> => {
  const out = mkdtempSync(join(tmpdir(), `package-${stage}-`));
  const env: NodeJS.ProcessEnv = { ...process.env, ESBUILD_WORK_FOLDER: `.esbuild-package-${stage}`, SLS_TELEMETRY_DISABLED: '1' };
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'API_KEY', 'JWT_PUBLIC_KEY']) delete env[name];
  await promisify(execFile)(
    process.execPath,
    [join(root, 'node_modules/serverless/bin/serverless.js'), 'package', '--stage', stage, '--package', out],
    { cwd: root, env, maxBuffer: 10 * 1024 * 1024 },
  );
  return JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8')) as CfnTemplate;
};

export const resourcesOfType = (template: CfnTemplate, type: string) =>
  Object.entries(template.Resources).filter(([, r]) => r.Type === type);
