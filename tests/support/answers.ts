import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { possibleAnswers } from '../../scripts/openapi';
import { routes, type Route } from '../../scripts/registry';

/**
 * Every answer the e2e tests receive is checked against the contract of the route that gave it
 * (tests/support/api.ts): its status must be documented, and its body must match one of the
 * schemas documented for that status. So OpenAPI and reality cannot drift apart.
 */
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validators = new WeakMap<object, ValidateFunction>();
const validatorOf = (schema: object) => {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
  return validate;
};

interface Matcher {
  route: Route;
  pattern: RegExp;
}
let matchers: Promise<Matcher[]> | undefined;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Literal paths before templated ones (`filters/count` before `filters/{id}`), as API Gateway routes. */
const routeMatchers = (): Promise<Matcher[]> =>
  (matchers ??= routes().then((all) =>
    all
      .map((route) => ({
        route,
        params: (route.path.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^/${route.path.split(/\{[^}]+\}/).map(escape).join('[^/]+')}$`),
      }))
      .sort((a, b) => a.params - b.params)
      .map(({ route, pattern }) => ({ route, pattern })),
  ));

/** The declared route a request reaches, if any. */
export const routeOf = async (method: string, path: string): Promise<Route | undefined> => {
  const bare = path.split('?')[0] ?? path;
  return (await routeMatchers()).find((m) => m.route.method === method.toUpperCase() && m.pattern.test(bare))?.route;
};

/** Why an answer breaks its route's contract, or undefined when it keeps it (or reaches no route). */
export const contractBreach = async (method: string, path: string, status: number, body: unknown): Promise<string | undefined> => {
  const route = await routeOf(method, path);
  if (!route) return undefined;
  const label = `${method} ${path} (${route.functionName}) answered ${status}`;
  const documented = possibleAnswers(route.contract)[status];
  if (!documented?.length) return `${label}, a status its contract does not document`;
  const schemas = documented.flatMap((answer) => (answer.schema ? [answer.schema as object] : []));
  if (schemas.length === 0 || schemas.some((schema) => validatorOf(schema)(body))) return undefined;
  const errors = validatorOf(schemas[0]!).errors ?? [];
  return `${label} with a body its contract does not describe: ${ajv.errorsText(errors.slice(0, 5))}; body ${JSON.stringify(body).slice(0, 300)}`;
};
