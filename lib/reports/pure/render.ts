/**
 * A fleet report as people read it: a mail's subject, text and HTML parts (telling the same),
 * and the JSON payload a webhook receives. Pure. Room, location, region and watcher names are
 * client input: every one is escaped in the HTML (escape-html), never trusted as markup.
 */
import escapeHtml from 'escape-html';
import { durationText } from '#lib/shared/duration';
import type { FleetReport } from '../types';

const percent = (ratio: number) => `${(Math.round(ratio * 10_000) / 100).toFixed(2)}%`;
const day = (iso: string) => iso.slice(0, 16).replace('T', ' ');

export const reportSubject = (report: FleetReport): string =>
  `[Report] ${report.name}: ${report.period} fleet report, ${percent(report.availability.overall)} available, ${report.alarms.total} alarms (${report.scope})`;

const periodLine = (report: FleetReport) => `Period: ${day(report.from)} to ${day(report.to)} UTC (${report.period}, ${report.timeZone}); scope: ${report.scope}.`;
const roomName = (room: { region: string; location: string; room: string }) => `${room.region} / ${room.location} / ${room.room}`;
const roomLine = (room: FleetReport['availability']['worstRooms'][number]) => `${roomName(room)}: ${percent(room.availability)} (${room.deviceCount} devices)`;
const kindLine = (kind: FleetReport['alarms']['byKind'][number]) =>
  `${kind.kind} "${kind.description || kind.watcherId}" (severity ${kind.severity}): ${kind.count}`;
const outageLine = (outage: FleetReport['longestOutages'][number]) =>
  `${roomName(outage)}, ${outage.devicesn}: down ${durationText(outage.durationSeconds)}, ${day(outage.raisedAt)} to ${day(outage.clearedAt)} UTC`;
const severityLine = (report: FleetReport) =>
  Object.entries(report.alarms.bySeverity)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ') || 'none';
const truncatedNote = 'Counted from the newest 5,000 alarms cleared: the period cleared more.';

/** The sections of a report, each a heading and its lines: the text and HTML parts list the same. */
const sectionsOf = (report: FleetReport): { heading: string; lines: string[]; empty: string }[] => [
  {
    heading: `Availability: ${percent(report.availability.overall)} over ${report.availability.rooms} rooms`,
    lines: report.availability.worstRooms.map(roomLine),
    empty: 'No room was observed in the period.',
  },
  {
    heading: `Alarms cleared: ${report.alarms.total} (${severityLine(report)})`,
    lines: [...report.alarms.byKind.map(kindLine), ...(report.alarms.truncated ? [truncatedNote] : [])],
    empty: 'No alarm cleared in the period.',
  },
  { heading: 'Longest outages', lines: report.longestOutages.map(outageLine), empty: 'No outage cleared in the period.' },
];

export const reportText = (report: FleetReport): string => {
  const lines = [reportSubject(report), periodLine(report)];
  for (const section of sectionsOf(report)) {
    lines.push('', section.heading, ...(section.lines.length ? section.lines.map((line) => `  - ${line}`) : [`  ${section.empty}`]));
  }
  lines.push('', `Schedule: ${report.scheduleId}; generated ${report.generatedAt}`);
  return lines.join('\n');
};

export const reportHtml = (report: FleetReport): string => {
  const parts = [`<h2>${escapeHtml(report.name)}</h2>`, `<p>${escapeHtml(periodLine(report))}</p>`];
  for (const section of sectionsOf(report)) {
    parts.push(
      `<h3>${escapeHtml(section.heading)}</h3>`,
      section.lines.length ? `<ul>${section.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` : `<p>${escapeHtml(section.empty)}</p>`,
    );
  }
  parts.push(`<p style="color:#666">Schedule: ${escapeHtml(report.scheduleId)}; generated ${escapeHtml(report.generatedAt)}</p>`);
  return `<!doctype html><html><body>${parts.join('\n')}</body></html>`;
};

/** What a `json` webhook receives: the report whole, with the delivery's facts. */
export interface ReportPayload {
  type: 'report';
  deliveryId: string;
  sentAt: string;
  summary: string;
  report: FleetReport;
}

export const reportPayload = (report: FleetReport, deliveryId: string, sentAt: string): ReportPayload => ({
  type: 'report',
  deliveryId,
  sentAt,
  summary: reportSubject(report),
  report,
});
