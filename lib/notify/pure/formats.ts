import { reportPayload, reportText } from '#lib/reports/pure/render';
import type { FleetReport } from '#lib/reports/types';
import { alarmLine, byRoom, introOf, moreLine, subjectOf } from './digest';
import type { Digest, NotifiedAlarm, WebhookFormat } from '../types';

/** The facts of one delivery, as the `json` format sends them. */
interface WebhookPayload {
  type: Digest['type'];
  deliveryId: string;
  sentAt: string;
  summary: string;
  /** `alarms.inhibited`: the parent problem that suppresses the alarms. */
  parent?: string;
  /** `alarms.escalated`: the escalation step reached (1-based). */
  step?: number;
  watcher?: { id: string; description: string; severity: number };
  alarms: NotifiedAlarm[];
  /** Alarms in the digest; `alarms` lists the first 50 of them. */
  totalAlarms: number;
}

export const payloadOf = (digest: Digest, deliveryId: string, sentAt: string): WebhookPayload => ({
  type: digest.type,
  deliveryId,
  sentAt,
  summary: subjectOf(digest),
  ...(digest.parent === undefined ? {} : { parent: digest.parent }),
  ...(digest.step === undefined ? {} : { step: digest.step }),
  ...(digest.watcher ? { watcher: { id: digest.watcher.id, description: digest.watcher.description, severity: digest.watcher.severity } } : {}),
  alarms: digest.alarms.map(({ id, devicesn, deviceid, region, location, room, severity, raisedAt, clearedAt }) => ({
    id, devicesn, deviceid, region, location, room, severity, raisedAt, ...(clearedAt ? { clearedAt } : {}),
  })),
  totalAlarms: digest.total,
});

// Slack: at most 50 blocks, 3000 characters per section text.
const SLACK_ROOMS = 40;

const SLACK_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Text Slack shows as written. Slack reads `&`, `<` and `>` as control characters (`<!here>`
 * notifies a channel, `<https://x|label>` disguises a link), so each becomes its entity in every
 * text it parses (`text`, mrkdwn, plain_text); watcher types, descriptions and place names are
 * client input, which must not inject markup or mentions. Clipped to `max` after escaping, never inside an entity.
 */
const slackText = (text: string, max = Number.POSITIVE_INFINITY): string => {
  const escaped = text.replace(/[&<>]/g, (c) => SLACK_ENTITIES[c]!);
  return escaped.length > max ? `${escaped.slice(0, max - 1).replace(/&[a-z]{0,3}$/, '')}…` : escaped;
};

/**
 * Text a Teams Adaptive Card shows as written: TextBlock and FactSet read Markdown (emphasis,
 * `[label](url)` links, `<url>` autolinks), so its punctuation is backslash-escaped.
 */
const teamsText = (text: string): string => text.replace(/[\\*_~`[\]<>]/g, (c) => `\\${c}`);

/** Slack incoming webhook: `text` (the summary, shown in notifications) and `blocks`. */
const slack = (digest: Digest, payload: WebhookPayload) => {
  const rooms = byRoom(digest.alarms);
  const more = moreLine(digest);
  return {
    text: slackText(payload.summary),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: slackText(payload.summary, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: slackText(introOf(digest), 3000) } },
      ...rooms.slice(0, SLACK_ROOMS).map((group) => ({
        type: 'section',
        text: { type: 'mrkdwn', text: `*${slackText(group.room, 200)}*\n${slackText(group.alarms.map((a) => `• ${alarmLine(a)}`).join('\n'), 2790)}` },
      })),
      { type: 'context', elements: [{ type: 'mrkdwn', text: slackText(`${more ? `${more} · ` : ''}delivery ${payload.deliveryId}`, 3000) }] },
    ],
  };
};

/** Microsoft Teams (Workflows "post to a channel when a webhook request is received"): an Adaptive Card message. */
const teams = (digest: Digest, payload: WebhookPayload) => {
  const more = moreLine(digest);
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: teamsText(payload.summary), weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: teamsText(introOf(digest)), wrap: true },
            ...byRoom(digest.alarms).flatMap((group) => [
              { type: 'TextBlock', text: teamsText(group.room), weight: 'Bolder', wrap: true, spacing: 'Medium' },
              {
                type: 'FactSet',
                facts: group.alarms.map((a) => ({ title: teamsText(a.devicesn), value: teamsText(alarmLine(a).slice(a.devicesn.length + 1)) })),
              },
            ]),
            ...(more ? [{ type: 'TextBlock', text: more, isSubtle: true, wrap: true }] : []),
            { type: 'TextBlock', text: teamsText(`delivery ${payload.deliveryId}`), isSubtle: true, size: 'Small', wrap: true },
          ],
        },
      },
    ],
  };
};

/** A fleet report for Slack and Teams: its summary, then its text (the JSON format carries it whole). */
const reportBody = (report: FleetReport, format: 'slack' | 'teams', deliveryId: string): unknown => {
  const [summary = '', ...rest] = reportText(report).split('\n');
  const body = rest.join('\n').trim();
  if (format === 'slack') {
    return {
      text: slackText(summary),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: slackText(summary, 150) } },
        { type: 'section', text: { type: 'mrkdwn', text: slackText(body, 3000) } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: slackText(`delivery ${deliveryId}`, 3000) }] },
      ],
    };
  }
  const card = [
    { type: 'TextBlock', text: teamsText(summary), weight: 'Bolder', size: 'Medium', wrap: true },
    ...body.split('\n').filter((line) => line.trim()).map((line) => ({ type: 'TextBlock', text: teamsText(line.trim()), wrap: true, spacing: 'None' })),
    { type: 'TextBlock', text: teamsText(`delivery ${deliveryId}`), isSubtle: true, size: 'Small', wrap: true },
  ];
  return {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body: card } },
    ],
  };
};

/** The raw body a webhook of this format receives; the signature is computed over exactly this string. */
export const webhookBody = (digest: Digest, format: WebhookFormat, deliveryId: string, sentAt: string): string => {
  if (digest.report) return JSON.stringify(format === 'json' ? reportPayload(digest.report, deliveryId, sentAt) : reportBody(digest.report, format, deliveryId));
  const payload = payloadOf(digest, deliveryId, sentAt);
  if (format === 'slack') return JSON.stringify(slack(digest, payload));
  if (format === 'teams') return JSON.stringify(teams(digest, payload));
  return JSON.stringify(payload);
};
