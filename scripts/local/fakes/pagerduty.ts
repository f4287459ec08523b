/**
 * A fake of PagerDuty for `npm start` and the tests: its Events API v2 (`POST /v2/enqueue`: checks
 * an event as PagerDuty does, answers 202, keeps one incident per dedup key; an acknowledge or
 * resolve with another routing key is dropped, as PagerDuty drops it), what it received
 * (`GET /_fake/events`, `GET /_fake/incidents`), the generic faults (`POST /_fake/faults`: 429 at a
 * rate, 5xx bursts, down), and a person acting in PagerDuty: `POST /_fake/incidents/<dedup_key>/acknowledge`
 * or `/resolve` (optional body `{"user": {"name", "email"}}`) changes the incident and sends a
 * signed V3 webhook to the receiver it was given. It signs with its own code, not the receiver's,
 * so that a mistake in either shows; `{"forge": true}` signs with a wrong secret.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ControlError, controlBody, json, startFake, type Faults, type FakeServer, type Reply } from './server';

export interface ReceivedEvent {
  receivedAt: string;
  /** The routing key's last 4 characters: enough to tell keys apart, never the key. */
  routingKey: string;
  event_action: string;
  dedup_key: string;
  payload?: Record<string, unknown>;
  links?: unknown;
}

interface Incident {
  dedupKey: string;
  routingKey: string;
  status: 'triggered' | 'acknowledged' | 'resolved';
  title: string;
  number: number;
  id: string;
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface PagerDutyFake extends FakeServer {
  events: ReceivedEvent[];
  setWebhook(target: WebhookTarget): void;
}

const ACTIONS = ['trigger', 'acknowledge', 'resolve'];
const SEVERITIES = ['critical', 'error', 'warning', 'info'];

/** PagerDuty's signature: `v1=` and the hex HMAC-SHA256 of the raw body. */
const sign = (secret: string, body: string) => `v1=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** What PagerDuty refuses with 400, or undefined for an event it takes. */
const problemOf = (event: Record<string, unknown>): string | undefined => {
  if (typeof event.routing_key !== 'string' || event.routing_key.length !== 32) return 'routing_key must be a 32-character integration key';
  if (!ACTIONS.includes(String(event.event_action))) return 'event_action must be trigger, acknowledge or resolve';
  if (event.dedup_key !== undefined && (typeof event.dedup_key !== 'string' || event.dedup_key.length > 255)) return 'dedup_key must be a string of at most 255 characters';
  if (event.event_action !== 'trigger') return typeof event.dedup_key === 'string' ? undefined : 'dedup_key is required to acknowledge or resolve';
  const payload = event.payload as Record<string, unknown> | undefined;
  if (!payload || typeof payload !== 'object') return 'payload is required to trigger';
  if (typeof payload.summary !== 'string' || payload.summary.length === 0 || payload.summary.length > 1024) return 'payload.summary must be 1 to 1024 characters';
  if (typeof payload.source !== 'string' || payload.source.length === 0) return 'payload.source is required';
  if (!SEVERITIES.includes(String(payload.severity))) return 'payload.severity must be critical, error, warning or info';
  return undefined;
};

export const startPagerDutyFake = async (options: { port?: number; faults?: Partial<Faults> } = {}): Promise<PagerDutyFake> => {
  const events: ReceivedEvent[] = [];
  const incidents = new Map<string, Incident>();
  let webhook: WebhookTarget | undefined;
  let numbers = 0;

  const enqueue = (body: string): Reply => {
    let event: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      event = parsed as Record<string, unknown>;
    } catch {
      return json(400, { status: 'invalid event', message: 'Event object is invalid', errors: ['the body is not a JSON object'] });
    }
    const problem = problemOf(event);
    if (problem) return json(400, { status: 'invalid event', message: 'Event object is invalid', errors: [problem] });
    const routingKey = String(event.routing_key);
    const dedupKey = typeof event.dedup_key === 'string' ? event.dedup_key : randomUUID();
    const action = String(event.event_action);
    events.push({
      receivedAt: new Date().toISOString(),
      routingKey: routingKey.slice(-4),
      event_action: action,
      dedup_key: dedupKey,
      ...(event.payload ? { payload: event.payload as Record<string, unknown> } : {}),
      ...(event.links ? { links: event.links } : {}),
    });
    const open = incidents.get(dedupKey);
    if (action === 'trigger') {
      if (!open || open.status === 'resolved') {
        const summary = String((event.payload as Record<string, unknown>).summary);
        incidents.set(dedupKey, { dedupKey, routingKey, status: 'triggered', title: summary, number: ++numbers, id: `PFAKE${numbers}` });
      }
    } else if (open && open.routingKey === routingKey && open.status !== 'resolved') {
      // another routing key's acknowledge or resolve is dropped, as PagerDuty drops it
      open.status = action === 'acknowledge' ? 'acknowledged' : 'resolved';
    }
    return json(202, { status: 'success', message: 'Event processed', dedup_key: dedupKey });
  };

  /** A person acting in PagerDuty: the incident changes and the V3 webhook goes to our receiver; answers what the receiver answered. */
  const act = async (dedupKey: string, action: 'acknowledge' | 'resolve', body: string): Promise<Reply> => {
    const incident = incidents.get(dedupKey);
    if (!incident) throw new ControlError(`no incident with dedup_key ${JSON.stringify(dedupKey)}`, 404);
    if (!webhook) throw new ControlError('no webhook receiver is set (npm start sets POST /incidents/pagerduty/events)', 409);
    const input = controlBody(body) as { user?: { name?: unknown; email?: unknown }; forge?: unknown };
    const user = { name: typeof input.user?.name === 'string' ? input.user.name : 'Dana On-Call', email: typeof input.user?.email === 'string' ? input.user.email : 'dana@example.com' };
    incident.status = action === 'acknowledge' ? 'acknowledged' : 'resolved';
    const event = {
      event: {
        id: randomUUID(),
        event_type: action === 'acknowledge' ? 'incident.acknowledged' : 'incident.resolved',
        resource_type: 'incident',
        occurred_at: new Date().toISOString(),
        agent: { id: 'PUSER01', type: 'user_reference', summary: user.name, email: user.email, html_url: 'https://fake.pagerduty.com/users/PUSER01' },
        data: {
          id: incident.id,
          type: 'incident',
          number: incident.number,
          status: incident.status,
          incident_key: incident.dedupKey,
          title: incident.title,
          html_url: `https://fake.pagerduty.com/incidents/${incident.id}`,
        },
      },
    };
    const raw = JSON.stringify(event);
    const signature = sign(input.forge === true ? 'not-the-secret' : webhook.secret, raw);
    try {
      const response = await fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-pagerduty-signature': signature }, body: raw });
      return json(200, { sent: true, status: response.status, answer: await response.json().catch(() => undefined) });
    } catch (error) {
      return json(200, { sent: false, error: error instanceof Error ? error.message : String(error) });
    }
  };

  const control = (req: IncomingMessage, url: URL, body: string): Reply | Promise<Reply> | undefined => {
    const acting = /^\/_fake\/incidents\/([^/]+)\/(acknowledge|resolve)$/.exec(url.pathname);
    if (acting && req.method === 'POST') return act(decodeURIComponent(acting[1]!), acting[2] as 'acknowledge' | 'resolve', body);
    if (url.pathname === '/_fake/events' && req.method === 'GET') {
      const key = url.searchParams.get('dedup_key');
      return json(200, { events: key === null ? events : events.filter((e) => e.dedup_key === key) });
    }
    if (url.pathname === '/_fake/incidents' && req.method === 'GET') return json(200, { incidents: [...incidents.values()].map(({ routingKey, ...rest }) => ({ ...rest, routingKey: routingKey.slice(-4) })) });
    return undefined;
  };

  const server = await startFake({
    name: 'pagerduty',
    isToken: () => false,
    trackingHeader: 'x-request-id',
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.port ? { port: options.port } : {}),
    control: (req, url, body) => control(req, url, body),
    handle: (req, url, body) => {
      if (url.pathname === '/v2/enqueue' && req.method === 'POST') return enqueue(body);
      return json(404, { message: `the PagerDuty fake serves POST /v2/enqueue, not ${req.method} ${url.pathname}` });
    },
  });
  return { ...server, events, setWebhook: (target) => (webhook = target) };
};

/** The local webhook secret of the fake: not a secret, it opens nothing but the local receiver. */
export const FAKE_PAGERDUTY_WEBHOOK_SECRET = 'fake-pagerduty-webhook-secret';

/**
 * The fake of `npm start` on `portText` (PAGERDUTY_FAKE_PORT, else PORT + 6; throws naming the
 * variable when it is no port), and what points the channels and the receiver at it.
 */
export const startLocalPagerDutyFake = async (portText: string, env: NodeJS.ProcessEnv = process.env) => {
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || port < 1 || port > 65_535) throw new Error(`PAGERDUTY_FAKE_PORT must be a TCP port from 1 to 65535 (got ${JSON.stringify(portText)})`);
  const fake = await startPagerDutyFake({ port });
  const apiPort = Number(env.PORT ?? 3000);
  return {
    fake,
    env: {
      PAGERDUTY_EVENTS_URL: `${fake.url}/v2/enqueue`,
      PAGERDUTY_WEBHOOK_SECRET: env.PAGERDUTY_WEBHOOK_SECRET || FAKE_PAGERDUTY_WEBHOOK_SECRET,
      // the link a trigger carries: locally the API's list of the watcher's alarms
      ALARM_LINK_URL: env.ALARM_LINK_URL || `http://localhost:${apiPort}/alarms?watcherId={watcherId}`,
    },
  };
};
