/*
 * The status board: six counts, a grid of rooms coloured by status and the newest open alarms
 * for a chosen scope, kept live over the WebSocket API (POST /live/ticket, then `subscribe`).
 * When the socket drops it polls every few seconds and says "reconnecting" until it is back.
 * The API address and key come from config.json beside this page (README "Status board").
 * Where the stage asks who acts (ACCESS_MODE=user), an answer 401 shows a sign-in form; the token
 * lives in this tab's sessionStorage and goes with every call, so the board shows only the
 * signed-in person's scope (the API answers nothing outside it).
 */
import {
  ALL,
  applyMessage,
  countsOf,
  emptyState,
  loaded,
  openMaintenance,
  roomKey,
  roomsApart,
  SEVERITY_NAMES,
  type Alarm,
  type BoardState,
  type Filter,
  type Message,
  type Room,
} from './state';

interface Config {
  apiUrl: string;
  apiKey: string;
  /** Seconds between polls while the socket is down (default 5). */
  pollSeconds?: number;
  /** Seconds between reloads while live, so that maintenance windows opening and closing show (default 60). */
  reloadSeconds?: number;
}

type Connection = 'connecting' | 'live' | 'reconnecting';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let config: Config;
let filter: Filter = { ...ALL };
let state: BoardState = emptyState(8, filter);
let socket: WebSocket | undefined;
let pollTimer: number | undefined;
let retryTimer: number | undefined;
let retries = 0;
/** Pushes that arrive while a fresh picture is being loaded are applied after it. */
let pending: Message[] | undefined;

const TOKEN_KEY = 'board.accessToken';
const USER_KEY = 'board.username';

/** Thrown when the API wants to know who calls: the board shows the sign-in form and waits. */
class SignInNeeded extends Error {}

const send = (method: string, path: string, body: unknown, token: string | null) =>
  fetch(`${config.apiUrl}${path}`, {
    method,
    headers: {
      'x-api-key': config.apiKey,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await send(method, path, body, sessionStorage.getItem(TOKEN_KEY));
  if (response.status === 401) {
    askToSignIn();
    throw new SignInNeeded('Sign in to see the board');
  }
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
  return (await response.json()) as T;
};

let signedOut = false;

/** Shows the sign-in form and stops every loop until someone signs in. */
const askToSignIn = () => {
  if (signedOut) return;
  signedOut = true;
  sessionStorage.removeItem(TOKEN_KEY);
  stopPolling();
  window.clearTimeout(retryTimer);
  const open = socket;
  socket = undefined;
  open?.close();
  document.body.classList.add('signed-out');
  $('signin').hidden = false;
  $('who').hidden = true;
  $('signout').hidden = true;
  setConnection('connecting');
  $<HTMLInputElement>('username').focus();
};

const showWho = () => {
  const username = sessionStorage.getItem(USER_KEY);
  const signedIn = !!sessionStorage.getItem(TOKEN_KEY) && !!username;
  $('who').textContent = signedIn ? `signed in as ${username}` : '';
  $('who').hidden = !signedIn;
  $('signout').hidden = !signedIn;
};

const signIn = async (event: SubmitEvent) => {
  event.preventDefault();
  const username = $<HTMLInputElement>('username').value;
  const response = await send('POST', '/api/authService/auth/signin', { username, password: $<HTMLInputElement>('password').value }, null);
  const answer = (await response.json().catch(() => ({}))) as { accessToken?: string; message?: string };
  if (!response.ok || !answer.accessToken) {
    $('signin-error').textContent = answer.message ?? `Sign-in answered ${response.status}`;
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, answer.accessToken);
  sessionStorage.setItem(USER_KEY, username);
  $<HTMLInputElement>('password').value = '';
  $('signin-error').textContent = '';
  $('signin').hidden = true;
  document.body.classList.remove('signed-out');
  signedOut = false;
  retries = 0;
  showWho();
  await start();
};

const signOut = async () => {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) await send('POST', '/api/authService/auth/logout', undefined, token).catch(() => undefined);
  sessionStorage.removeItem(USER_KEY);
  askToSignIn();
};

const alarmQuery = () => {
  const params = new URLSearchParams({ limit: String(state.alarmLimit) });
  if (filter.regionName !== 'all') params.set('region', filter.regionName);
  if (filter.locationName !== 'all') params.set('location', filter.locationName);
  if (filter.roomName !== 'all') params.set('room', filter.roomName);
  return `/alarms?${params}`;
};

/** The whole picture from the REST API (on subscribe, and every poll while the socket is down). */
const reload = async () => {
  pending = [];
  try {
    const at = new Date().toISOString();
    const [rooms, alarms] = await Promise.all([api<Room[]>('POST', '/live/rooms', filter), api<{ items: Alarm[] }>('GET', alarmQuery())]);
    state = loaded(state, rooms, alarms.items, at);
    for (const message of pending) state = applyMessage(state, message);
  } finally {
    pending = undefined;
    render();
  }
};

const setConnection = (connection: Connection) => {
  const badge = $('connection');
  badge.dataset.state = connection;
  badge.textContent = connection === 'live' ? 'live' : connection === 'connecting' ? 'connecting…' : 'reconnecting… (polling)';
};

/** A room's tile; one in maintenance also names its windows and when they close. */
const tileOf = (room: Room, now: string) => {
  const tile = document.createElement('div');
  tile.className = 'tile';
  tile.dataset.room = roomKey(room);
  tile.dataset.status = room.roomStatus;
  tile.title = `${roomKey(room)}: ${room.roomStatus}, ${room.online} of ${room.deviceCount} online`;
  const name = document.createElement('strong');
  name.textContent = room.room;
  const where = document.createElement('span');
  where.textContent = `${room.location}, ${room.region}`;
  const devices = document.createElement('span');
  devices.textContent = `${room.online}/${room.deviceCount} online`;
  tile.append(name, where, devices);
  const held = openMaintenance(room, now);
  if (held.length > 0) {
    tile.dataset.maintenance = held.map((window) => window.id).join(' ');
    const windows = document.createElement('span');
    windows.className = 'maintenance';
    windows.textContent = held.map((window) => `${window.comment || 'maintenance'} until ${new Date(window.closesAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`).join('; ');
    tile.append(windows);
  }
  return tile;
};

const render = () => {
  const counts = countsOf(state);
  for (const [name, value] of Object.entries(counts)) $(`count-${name}`).textContent = String(value);
  const now = new Date().toISOString();
  const { inService, inMaintenance } = roomsApart(state, now);
  $('rooms').replaceChildren(...inService.map((room) => tileOf(room, now)));
  $('maintenance-rooms').replaceChildren(...inMaintenance.map((room) => tileOf(room, now)));
  $('maintenance-section').hidden = inMaintenance.length === 0;
  const list = $('alarms');
  list.replaceChildren(
    ...state.alarms.map((alarm) => {
      const item = document.createElement('li');
      item.dataset.severity = SEVERITY_NAMES[alarm.severity] ?? 'Info';
      const flags = [alarm.acknowledged ? 'acknowledged' : '', alarm.silenced ? 'silenced' : '', alarm.inMaintenance?.length ? 'in maintenance' : ''].filter(Boolean).join(', ');
      item.textContent = `${SEVERITY_NAMES[alarm.severity] ?? alarm.severity} · ${alarm.devicesn} · ${alarm.room}, ${alarm.location} · ${new Date(alarm.raisedAt).toLocaleTimeString()}${alarm.description ? ` · ${alarm.description}` : ''}${flags ? ` (${flags})` : ''}`;
      return item;
    }),
  );
  $('empty-alarms').hidden = state.alarms.length > 0;
};

const onMessage = (message: Message) => {
  if (message.type === 'subscribed') {
    retries = 0;
    stopPolling();
    setConnection('live');
    void reload().catch(showError);
    startReloading();
    return;
  }
  if (message.type === 'error') return showError(new Error(message.message));
  if (pending) pending.push(message);
  else {
    state = applyMessage(state, message);
    render();
  }
};

const showError = (error: unknown) => {
  $('error').textContent = error instanceof SignInNeeded ? '' : error instanceof Error ? error.message : String(error);
};

const startPolling = () => {
  if (pollTimer !== undefined) return;
  const poll = () => void reload().then(() => showError(''), showError);
  poll();
  pollTimer = window.setInterval(poll, (config.pollSeconds ?? 5) * 1000);
};
/** While live, a fresh picture now and then: windows open and close without any push. */
let reloadTimer: number | undefined;
const startReloading = () => {
  if (reloadTimer !== undefined) return;
  reloadTimer = window.setInterval(() => {
    if (socket?.readyState === WebSocket.OPEN && !pending) void reload().catch(showError);
  }, (config.reloadSeconds ?? 60) * 1000);
};

const stopPolling = () => {
  if (pollTimer !== undefined) window.clearInterval(pollTimer);
  pollTimer = undefined;
};

/** Opens the socket with a fresh ticket; on any failure falls back to polling and retries with backoff. */
const connect = async () => {
  window.clearTimeout(retryTimer);
  setConnection(retries === 0 ? 'connecting' : 'reconnecting');
  try {
    const { url } = await api<{ url: string }>('POST', '/live/ticket', { filter });
    const opened = new WebSocket(url);
    socket = opened;
    opened.onopen = () => opened.send(JSON.stringify({ action: 'subscribe', filter }));
    opened.onmessage = (event) => onMessage(JSON.parse(String(event.data)) as Message);
    opened.onclose = () => {
      if (socket === opened) lost();
    };
  } catch (error) {
    showError(error);
    if (!signedOut) lost();
  }
};

const lost = () => {
  if (signedOut) return;
  socket = undefined;
  setConnection('reconnecting');
  startPolling();
  retries++;
  retryTimer = window.setTimeout(() => void connect(), Math.min(15_000, 1000 * 2 ** Math.min(retries, 4)));
};

const fillSelect = async (id: string, path: string, body: Partial<Filter>, chosen: string) => {
  const names = await api<string[]>('POST', path, body);
  const select = $<HTMLSelectElement>(id);
  select.replaceChildren(...['all', ...names].map((name) => new Option(name === 'all' ? 'all' : name, name, false, name === chosen)));
};

const fillScope = async () => {
  const region = filter.regionName === 'all' ? {} : { regionName: filter.regionName };
  const location = filter.locationName === 'all' ? region : { ...region, locationName: filter.locationName };
  await Promise.all([
    fillSelect('region', '/filters/region', {}, filter.regionName),
    fillSelect('location', '/filters/location', region, filter.locationName),
    fillSelect('room', '/filters/room', location, filter.roomName),
  ]);
};

/** A new scope: asked of the open socket (it answers `subscribed`), or of the next connection. */
const changeScope = (next: Filter) => {
  filter = next;
  state = emptyState(state.alarmLimit, next);
  render();
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ action: 'subscribe', filter }));
  else void reload().catch(showError);
  void fillScope().catch(showError);
};

const main = async () => {
  config = (await (await fetch('config.json', { cache: 'no-store' })).json()) as Config;
  $('api').textContent = config.apiUrl;
  $<HTMLSelectElement>('region').onchange = (event) =>
    changeScope({ regionName: (event.target as HTMLSelectElement).value, locationName: 'all', roomName: 'all' });
  $<HTMLSelectElement>('location').onchange = (event) => changeScope({ ...filter, locationName: (event.target as HTMLSelectElement).value, roomName: 'all' });
  $<HTMLSelectElement>('room').onchange = (event) => changeScope({ ...filter, roomName: (event.target as HTMLSelectElement).value });
  $<HTMLFormElement>('signin').onsubmit = (event) => void signIn(event).catch(showError);
  $('signout').onclick = () => void signOut();
  showWho();
  render();
  await start();
};

/** The scope lists, then the live connection; a 401 on the way shows the sign-in form instead. */
const start = async () => {
  await fillScope().catch(showError);
  if (!signedOut) await connect();
};

void main().catch(showError);
