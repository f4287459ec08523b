'use strict';

/**
 * Routes that exist only to measure what one more route costs the stack (tests/e2e/package.test.ts,
 * docs/adr/0561): with SYNTHETIC_ROUTES=<n> in the environment of `serverless package`, n extra
 * functions, each behind a GET on a path of its own (new path segments, the dearest case), with
 * the handler of an existing route. Without it, none: every other command, and every stage that
 * is deployed, declares exactly the generated functions. Deploying with it set is refused.
 */
const HANDLER = 'functions/alarmConfigLists/dashboards.handler';
const MAX = 50;

module.exports = async () => {
  const raw = process.env.SYNTHETIC_ROUTES ?? '';
  if (raw === '' || raw === '0') return {};
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0 || count > MAX) throw new Error(`SYNTHETIC_ROUTES must be a whole number from 0 to ${MAX}, not ${raw}`);
  if (!process.argv.includes('package')) throw new Error('SYNTHETIC_ROUTES measures a packaged template only: unset it to deploy or run offline');
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `syntheticRoute${i + 1}`,
      { handler: HANDLER, events: [{ http: { method: 'get', path: `synthetic/route${i + 1}/{id}`, private: true } }] },
    ]),
  );
};
