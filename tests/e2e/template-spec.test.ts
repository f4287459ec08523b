import { beforeAll, describe, expect, it } from 'vitest';
import { specProblems } from '../support/cfn-spec';
import { packageStage, type CfnTemplate } from '../support/package';

/**
 * The packaged prod template against AWS's published CloudFormation resource specification
 * (tests/support/cfn-spec.ts), without an AWS account: what `serverless deploy` would hand to
 * CloudFormation must name only known types and properties, and refer only to what exists.
 */
let prod: CfnTemplate;
beforeAll(async () => {
  prod = await packageStage('prod');
}, 600_000);

/** A copy of the prod template that `change` has altered. */
const altered = (change: (t: CfnTemplate) => void): CfnTemplate => {
  const copy = structuredClone(prod);
  change(copy);
  return copy;
};

describe('the prod template against the CloudFormation resource specification', () => {
  it('has only known resource types and properties, every required property, and no dangling reference', () => {
    expect(specProblems(prod)).toEqual([]);
  });

  it('would report a template CloudFormation refuses', () => {
    const fn = (t: CfnTemplate) => t.Resources.SessionsSigninLambdaFunction!;
    expect(specProblems(altered((t) => void (t.Resources.Odd = { Type: 'AWS::Lambda::Functions', Properties: {} })))).toEqual(['Odd: unknown resource type AWS::Lambda::Functions']);
    expect(specProblems(altered((t) => void (fn(t).Properties!.Runtim = 'nodejs22.x')))).toEqual([expect.stringContaining('unknown property Runtim')]);
    expect(specProblems(altered((t) => void delete fn(t).Properties!.Code))).toEqual([expect.stringContaining('required property Code missing')]);
    expect(specProblems(altered((t) => void (fn(t).Properties!.MemorySize = 'lots')))).toEqual([expect.stringContaining('expected a number')]);
    expect(specProblems(altered((t) => void (fn(t).Properties!.TracingConfig = { Mode: 'Active', Sampling: 1 })))).toEqual([expect.stringContaining('TracingConfig: unknown property Sampling')]);
    expect(specProblems(altered((t) => void (fn(t).Properties!.Role = { 'Fn::GetAtt': ['NoSuchRole', 'Arn'] })))).toEqual([expect.stringContaining('NoSuchRole.Arn, which is not a resource')]);
    expect(specProblems(altered((t) => void (fn(t).Properties!.Role = { 'Fn::GetAtt': ['Table', 'Endpoint'] })))).toEqual([expect.stringContaining('an attribute AWS::DynamoDB::Table does not have')]);
    expect(specProblems(altered((t) => void (fn(t).Properties!.Description = { Ref: 'Nothing' })))).toEqual([expect.stringContaining('refers to Nothing, which is not defined')]);
    expect(specProblems(altered((t) => void (fn(t).Properties!.Description = { 'Fn::Sub': '${Gone.Arn} ${AWS::Region} ${!Literal}' })))).toEqual([expect.stringContaining('GetAtt Gone.Arn')]);
    expect(specProblems(altered((t) => void (fn(t).DependsOn = ['Missing'])))).toEqual([expect.stringContaining('DependsOn Missing')]);
  });
});
