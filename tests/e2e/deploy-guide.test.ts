import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';
import { packageStage, resourcesOfType, type CfnTemplate } from '../support/package';

/**
 * docs/guide/deploy.md against the packaged prod template: the SSM parameters it tells an
 * operator to create are exactly those the template names (read at run time through a
 * function's `*_PARAM`, or resolved by CloudFormation), and the counts it gives are the template's.
 */
const GUIDE = join(root, 'docs/guide/deploy.md');
const PREFIX = '/device-monitoring/';

let prod: CfnTemplate;
beforeAll(async () => {
  prod = await packageStage('prod');
}, 600_000);

const guide = () => readFileSync(GUIDE, 'utf8');

/** The stage's SSM parameters the template names, without the `/device-monitoring/prod/` head. */
const templateParameters = (): string[] => {
  const names = new Set<string>();
  for (const [, fn] of resourcesOfType(prod, 'AWS::Lambda::Function')) {
    const variables = (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
    for (const [name, value] of Object.entries(variables)) {
      if (name.endsWith('_PARAM') && typeof value === 'string' && value.startsWith(`${PREFIX}prod/`)) names.add(value.slice(`${PREFIX}prod/`.length));
    }
  }
  for (const [, name] of JSON.stringify(prod).matchAll(/\{\{resolve:ssm:\/device-monitoring\/prod\/([^}:]+)\}\}/g)) names.add(name!);
  return [...names].sort();
};

describe('docs/guide/deploy.md', () => {
  it('has the operator create exactly the SSM parameters the template names', () => {
    const created = [...guide().matchAll(/put-parameter --type (?:SecureString|String) --name \/device-monitoring\/\$S\/([\w/-]+)/g)].map(([, name]) => name!);
    expect(templateParameters().length).toBeGreaterThan(5);
    expect([...new Set(created)].sort()).toEqual(templateParameters());
  });

  it('gives the counts of what a deploy creates', () => {
    const text = guide();
    const count = (type: string) => resourcesOfType(prod, type).length;
    expect(text).toContain(`**${Object.keys(prod.Resources).length} resources**`);
    expect(text).toContain(`**${count('AWS::Lambda::Function')} functions**`);
    expect(text).toContain(`**${count('AWS::CloudWatch::Alarm')} CloudWatch alarms**`);
    expect(text).toContain(`${count('AWS::IAM::Role')} IAM roles`);
  });

  it('names the stack outputs it reads', () => {
    for (const [, output] of guide().matchAll(/OutputKey=='(\w+)'/g)) expect(Object.keys(prod.Outputs ?? {})).toContain(output);
  });
});
