/** Writes the summary table of bench/README.md from bench/results/*.json: each figure against its target. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsDir, root } from './lib';

const read = <T>(name: string): T | undefined => {
  const file = join(resultsDir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
};

const row = (figure: string, value: number | undefined, target: string, met: (v: number) => boolean, when?: string) =>
  value === undefined
    ? `| ${figure} | not measured | ${target} | – | – |`
    : `| ${figure} | ${value} | ${target} | ${met(value) ? 'met' : '**NOT met**'} | ${when?.slice(0, 10) ?? ''} |`;

export const writeSummary = () => {
  const cold = read<{ worstSize: number; worstImport: number; measuredAt: string }>('coldstart');
  const warm = read<{ ratio: number; measuredAt: string }>('warm');
  const stats = read<{ summary: { ratio: number }[]; measuredAt: string }>('stats');
  const load = read<{ failed: number; latencyMs: { p50: number; p99: number }; requestsPerSecond: number; measuredAt: string }>('load');
  const start = read<{ firstMedianSeconds: number; warmMedianSeconds: number; measuredAt: string }>('start');
  const live = read<{ lost: number; delayMs: { p50: number; p99: number }; measuredAt: string }>('live');
  const worstStats = stats ? Math.max(...stats.summary.map((s) => s.ratio)) : undefined;
  const table = [
    '| figure | measured | target | | date |',
    '|---|---:|---|---|---|',
    row('cold start: largest bundle / floor bundle', cold?.worstSize, '<= 1.2', (v) => v <= 1.2, cold?.measuredAt),
    row('cold start: slowest import / floor import', cold?.worstImport, '<= 1.25', (v) => v <= 1.25, cold?.measuredAt),
    row('warm: handler GetItem / raw GetItem', warm?.ratio, '<= 1.3', (v) => v <= 1.3, warm?.measuredAt),
    row('stats: worst 100k-device / 1k-device time', worstStats, '<= 2', (v) => v <= 2, stats?.measuredAt),
    row('HTTP load: failed requests (50 connections)', load?.failed, '0', (v) => v === 0, load?.measuredAt),
    load ? `| HTTP load: p50 / p99 latency, req/s | ${load.latencyMs.p50} / ${load.latencyMs.p99} ms, ${load.requestsPerSecond} req/s | reported | | ${load.measuredAt.slice(0, 10)} |` : '',
    row('npm start: first answer, warm start (median s)', start?.warmMedianSeconds, '<= 10', (v) => v <= 10, start?.measuredAt),
    row('npm start: first answer, first start (median s)', start?.firstMedianSeconds, '<= 20', (v) => v <= 20, start?.measuredAt),
    row('live: pushes lost (500 sockets, 50 room changes/s)', live?.lost, '0', (v) => v === 0, live?.measuredAt),
    row('live: p99 delay from change to receipt, ms', live?.delayMs.p99, '< 1000', (v) => v < 1000, live?.measuredAt),
  ]
    .filter(Boolean)
    .join('\n');
  const readme = join(root, 'bench', 'README.md');
  const text = readFileSync(readme, 'utf8');
  const block = `<!-- summary:start -->\n${table}\n<!-- summary:end -->`;
  writeFileSync(readme, text.replace(/<!-- summary:start -->[\s\S]*<!-- summary:end -->/, block));
  console.log(table);
};

if (require.main === module) writeSummary();
