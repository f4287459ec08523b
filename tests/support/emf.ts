import { vi } from 'vitest';

/** One CloudWatch embedded-metric-format line, as Powertools metrics writes it to stdout. */
export interface Emf {
  _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** The EMF lines written to stdout while `act` runs. */
export const emitted = async (act: () => Promise<unknown>): Promise<Emf[]> => {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await act();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter((l) => l.includes('"_aws"')).map((l) => JSON.parse(l) as Emf);
};
