/**
 * A CloudFormation template checked against AWS's published resource specification, offline:
 * the database of `@aws-cdk/aws-service-spec` (the CloudFormation registry schemas AWS publishes,
 * as the CDK generates its resources from them). Every resource type and property must be known,
 * required properties present, values of the declared shape, and every Ref, GetAtt, Sub and
 * DependsOn must name something the template (or CloudFormation) defines.
 */
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { Property, PropertyType, Resource, SpecDatabase } from '@aws-cdk/service-spec-types';
import type { CfnTemplate } from './package';

const PSEUDO = new Set(['AWS::AccountId', 'AWS::NotificationARNs', 'AWS::NoValue', 'AWS::Partition', 'AWS::Region', 'AWS::StackId', 'AWS::StackName', 'AWS::URLSuffix']);
const RESOURCE_KEYS = new Set(['Type', 'Properties', 'DependsOn', 'DeletionPolicy', 'UpdateReplacePolicy', 'Condition', 'Metadata', 'CreationPolicy', 'UpdatePolicy']);

let db: SpecDatabase | undefined;
const spec = (): SpecDatabase => (db ??= loadAwsServiceSpecSync());

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ Ref: ... }` or `{ 'Fn::X': ... }`: its value is known at deploy only, so its shape is not checked. */
const isIntrinsic = (value: unknown): boolean => {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0]!.startsWith('Fn::'));
};

/** The resource type's entry in the specification, if AWS publishes one. */
export const resourceSpec = (type: string): Resource | undefined => spec().lookup('resource', 'cloudFormationType', 'equals', type)[0];

/** Every problem of `template`; empty when CloudFormation's specification accepts it. */
export const specProblems = (template: CfnTemplate & { Parameters?: Record<string, unknown>; Conditions?: Record<string, unknown> }): string[] => {
  const problems: string[] = [];
  const resources = template.Resources;

  /** Whether `value` has the shape `type` declares; problems are reported under `at`. */
  const check = (value: unknown, type: PropertyType, at: string, report: string[]): void => {
    if (isIntrinsic(value)) return;
    switch (type.type) {
      case 'string':
      case 'date-time':
        // CloudFormation passes numbers and booleans on as their text
        if (!['string', 'number', 'boolean'].includes(typeof value)) report.push(`${at}: expected a string, got ${JSON.stringify(value)?.slice(0, 80)}`);
        return;
      case 'number':
      case 'integer':
        if (typeof value !== 'number' && !(typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))) report.push(`${at}: expected a number, got ${JSON.stringify(value)?.slice(0, 80)}`);
        return;
      case 'boolean':
        if (typeof value !== 'boolean' && value !== 'true' && value !== 'false') report.push(`${at}: expected a boolean, got ${JSON.stringify(value)?.slice(0, 80)}`);
        return;
      case 'json':
        if (!isObject(value) && !Array.isArray(value) && typeof value !== 'string') report.push(`${at}: expected JSON, got ${JSON.stringify(value)?.slice(0, 80)}`);
        return;
      case 'null':
        if (value !== null) report.push(`${at}: expected null`);
        return;
      case 'tag':
        if (!isObject(value) || !('Key' in value) || !('Value' in value)) report.push(`${at}: expected a tag { Key, Value }`);
        return;
      case 'array':
        if (!Array.isArray(value)) report.push(`${at}: expected a list, got ${JSON.stringify(value)?.slice(0, 80)}`);
        else value.forEach((element, i) => check(element, type.element, `${at}[${i}]`, report));
        return;
      case 'map':
        if (!isObject(value)) report.push(`${at}: expected a map, got ${JSON.stringify(value)?.slice(0, 80)}`);
        else for (const [key, element] of Object.entries(value)) check(element, type.element, `${at}.${key}`, report);
        return;
      case 'union': {
        // accepted when one member accepts it; otherwise the problems of the member that came closest
        const attempts = type.types.map((member) => {
          const found: string[] = [];
          check(value, member, at, found);
          return found;
        });
        if (attempts.some((found) => found.length === 0)) return;
        report.push(...attempts.sort((a, b) => a.length - b.length)[0]!);
        return;
      }
      case 'ref': {
        const definition = spec().get('typeDefinition', type.reference);
        if (!isObject(value)) report.push(`${at}: expected an object (${definition.name}), got ${JSON.stringify(value)?.slice(0, 80)}`);
        else checkProperties(value, definition.properties, at, report);
        return;
      }
      default:
        report.push(`${at}: a property type this check does not know (${JSON.stringify(type)})`);
    }
  };

  const checkProperties = (value: Record<string, unknown>, declared: Record<string, Property>, at: string, report: string[]): void => {
    for (const [name, property] of Object.entries(declared)) {
      if (property.required && !(name in value)) report.push(`${at}: required property ${name} missing`);
    }
    for (const [name, element] of Object.entries(value)) {
      const property = declared[name];
      if (!property) report.push(`${at}: unknown property ${name}`);
      else check(element, property.type, `${at}.${name}`, report);
    }
  };

  for (const [id, resource] of Object.entries(resources)) {
    for (const key of Object.keys(resource)) if (!RESOURCE_KEYS.has(key)) problems.push(`${id}: unknown resource attribute ${key}`);
    const declared = resourceSpec(resource.Type);
    if (!declared) {
      problems.push(`${id}: unknown resource type ${resource.Type}`);
      continue;
    }
    checkProperties(resource.Properties ?? {}, declared.properties, `${id} (${resource.Type})`, problems);
    const dependsOn = (resource as { DependsOn?: string | string[] }).DependsOn;
    for (const target of [dependsOn ?? []].flat()) if (!resources[target]) problems.push(`${id}: DependsOn ${target}, which is not a resource`);
  }

  // every reference, anywhere in resources and outputs
  const parameters = new Set(Object.keys(template.Parameters ?? {}));
  const refers = (name: string, at: string) => {
    if (!resources[name] && !parameters.has(name) && !PSEUDO.has(name)) problems.push(`${at}: refers to ${name}, which is not defined`);
  };
  const getAtt = (name: string, attribute: string, at: string) => {
    const target = resources[name];
    if (!target) return problems.push(`${at}: GetAtt ${name}.${attribute}, which is not a resource`);
    const declared = resourceSpec(target.Type);
    if (declared && !(attribute in declared.attributes)) problems.push(`${at}: GetAtt ${name}.${attribute}, an attribute ${target.Type} does not have`);
  };
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) return value.forEach((element, i) => walk(element, `${at}[${i}]`));
    if (!isObject(value)) return;
    if (typeof value.Ref === 'string' && Object.keys(value).length === 1) refers(value.Ref, at);
    const att = value['Fn::GetAtt'];
    if (att !== undefined) {
      const [name, attribute] = Array.isArray(att) ? att : String(att).split(/\.(.*)/);
      getAtt(String(name), String(attribute), at);
    }
    const sub = value['Fn::Sub'];
    if (sub !== undefined) {
      const [text, variables] = Array.isArray(sub) ? [sub[0], sub[1] ?? {}] : [sub, {}];
      for (const [, name] of String(text).matchAll(/\$\{(?!!)([^}]+)\}/g)) {
        if (isObject(variables) && name! in variables) continue;
        const [resource, ...attribute] = name!.split('.');
        if (attribute.length) getAtt(resource!, attribute.join('.'), at);
        else refers(resource!, at);
      }
    }
    for (const [key, element] of Object.entries(value)) walk(element, `${at}.${key}`);
  };
  for (const [id, resource] of Object.entries(resources)) walk(resource.Properties, id);
  for (const [id, output] of Object.entries(template.Outputs ?? {})) walk(output, `Outputs.${id}`);
  return problems;
};
