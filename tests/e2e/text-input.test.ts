import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { watcherInput } from '../support/fleet';

type ErrorBody = { message: string; errors?: { field: string; message: string }[] };

// JSON.stringify keeps a lone surrogate as the escape "\ud800": valid JSON, not Unicode text.
const LONE = '\ud800';
const DEVICE_QUERIES = [
  '/videoDevice/all/allDevices',
  '/videoDevice/all/totalDevices',
  '/videoDevice/all/devicesConnected',
  '/videoDevice/all/numOfDevicesByRoom',
  '/videoDevice/room/numOfRooms',
  '/videoDevice/room/numDevicesConnected',
  '/videoDevice/room/roomStatusCount',
];
const fieldsOf = (body: ErrorBody) => body.errors?.map((e) => e.field) ?? [];

describe('strings that are not Unicode text, or names holding control characters', () => {
  it.each(DEVICE_QUERIES)('POST %s answers 422 naming the field for a lone surrogate', async (path) => {
    const res = await api<ErrorBody>('POST', path, { body: { regionName: LONE, locationName: 'all', roomName: 'all' } });
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body)).toEqual(['body.regionName']);
    expect(res.body.message).toContain('body.regionName must be well-formed Unicode');
  });

  it.each(DEVICE_QUERIES)('POST %s answers 422 naming the field for a control character in a name', async (path) => {
    const res = await api<ErrorBody>('POST', path, { body: { regionName: 'all', locationName: 'all', roomName: 'Room\u00071' } });
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body)).toEqual(['body.roomName']);
  });

  it.each(['region', 'location', 'room'])('POST /filters/%s answers 400 naming the field, in both shapes', async (kind) => {
    const flat = await api<ErrorBody>('POST', `/filters/${kind}`, { body: { locationName: `x${LONE}` } });
    expect(flat.status).toBe(400);
    expect(fieldsOf(flat.body)).toEqual(['body.locationName']);
    const counted = await api<ErrorBody>('POST', `/filters/${kind}`, { body: { filters: { roomName: `\u001b[2J` } } });
    expect(counted.status).toBe(400);
    expect(fieldsOf(counted.body)).toEqual(['body.filters.roomName']);
  });

  it('GET /alarms answers 422 naming a query parameter holding a control character', async () => {
    const res = await api<ErrorBody>('GET', `/alarms?room=${encodeURIComponent('Room\n1')}`);
    expect(res.status).toBe(422);
    expect(fieldsOf(res.body)).toEqual(['queryStringParameters.room']);
  });

  it('names every malformed field of a nested body, keys included', async () => {
    const res = await api<ErrorBody>('POST', '/filters', { body: [{ id: 1, name: `a${LONE}`, description: LONE }] });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['body[0].name', 'body[0].description']);
  });
});

describe('single-line fields refuse control characters (mail header injection)', () => {
  const watcher = watcherInput({ user: 'ana', sendEmail: true, emails: ['ops@example.com'] });

  it('POST /watcher answers 400 for a description with CR LF, which would reach the mail subject', async () => {
    const res = await api<ErrorBody>('POST', '/watcher', { body: { ...watcher, description: 'offline\r\nBcc: attacker@example.com' } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['body.description']);
  });

  it.each(['user', 'dashboard', 'service', 'type'])('POST /watcher answers 400 for a control character in %s', async (field) => {
    const res = await api<ErrorBody>('POST', '/watcher', { body: { ...watcher, description: 'ok', [field]: 'a\tb' } });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual([`body.${field}`]);
  });

  it('a filter name is one line, while its description may break lines', async () => {
    const id = 900_000 + Math.floor(Math.random() * 90_000);
    const badName = await api<ErrorBody>('POST', `/filters/${id}`, { body: { name: 'Lobby\r\n', description: 'ok' } });
    expect(badName.status).toBe(400);
    expect(fieldsOf(badName.body)).toEqual(['body.name']);
    const multiLine = await api('POST', `/filters/${id}`, { body: { name: 'Lobby', description: 'front desk\nsecond floor' } });
    expect(multiLine.status).toBe(200);
    const badDescription = await api<ErrorBody>('POST', `/filters/${id}`, { body: { name: 'Lobby', description: 'bell\u0007' } });
    expect(badDescription.status).toBe(400);
    expect(fieldsOf(badDescription.body)).toEqual(['body.description']);
    await api('DELETE', `/filters/${id}`);
  });
});
