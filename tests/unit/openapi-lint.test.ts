import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

/**
 * docs/openapi.json as tools read it: Redocly CLI's `lint` with redocly.yaml (the recommended
 * rules plus descriptions, global tags and license), no error and no warning.
 */
describe('docs/openapi.json lint (Redocly CLI)', () => {
  it('reports no error and no warning', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', 'docs/openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' }, maxBuffer: 20 * 1024 * 1024 },
    ).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
