/*
 * The status board: six counts, rooms grouped by region and location (the worst first) and a
 * page of open alarms for a chosen scope, kept live over the WebSocket API (POST /live/ticket,
 * then `subscribe`). While the socket is up it checks every `pollSeconds` that the API still
 * answers and agrees with what it shows; while the socket is down it polls and reconnects. The
 * figures show only while the board has heard from the API within the poll interval: loading,
 * unreachable, unauthorised and stale are said in words instead (health.ts).
 * The API address and key come from config.json beside this page (docs/guide/live.md).
 * Where the stage asks who acts (ACCESS_MODE=user), an answer 401 shows a sign-in form; the
 * token is held in memory only (api.ts).
 */
import { boardActions } from './actions';
import { api, configure, currentSession, Declined, Refused, signIn, signOut, Unreachable, type Config } from './api';
import { initialHealth, nextHealth, phaseOf, type HealthEvent } from './health';
import { ALL, applyMessage, countsOf, emptyState, loaded, showPage, type Alarm, type BoardState, type Filter, type Message, type Room } from './state';
import { $, renderFigures, renderPhase } from './view';

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const PAGE_SIZE = 10;
/** Firing alarms read for the tiles' marks: pages of 1000, at most this many pages. */
const FIRING_PAGES = 5;

let config: Config;
let filter: Filter = { ...ALL };
let state: BoardState = emptyState(PAGE_SIZE, filter);
let health = initialHealth();
let socket: WebSocket | undefined;
let tickTimer: number | undefined;
let reloadTimer: number | undefined;
let retryTimer: number | undefined;
let retries = 0;
/** Pushes that arrive while a fresh picture is being loaded are applied after it. */
let pending: Message[] | undefined;
let loading: Promise<void> | undefined;
/** The cursor of each alarm page shown so far (the first has none), and the next page's. */
let cursors: (string | undefined)[] = [undefined];
let olderCursor: string | null = null;
/** Set while the sign-in form is up: every loop waits for it. */
let signedOut = false;
/** Whether the scope lists were filled (a first call that failed leaves them to the next success). */
let scopeFilled = false;
/**
 * Whether the board holds a whole picture of the current scope. Only a whole picture (a reload),
 * or a check that the API agrees with it, counts as hearing from the API: a push or `subscribed`
 * says the socket is alive, not that the figures are right.
 */
let pictureLoaded = false;

const pollMs = () => (config.pollSeconds ?? 5) * 1000;

const record = (event: HealthEvent) => {
  health = nextHealth(health, event);
};

let shownFresh = false;

/** The banner and panel; the figures too when they changed (`figures`) or come back into view. */
const render = (figures = true) => {
  const now = Date.now();
  const phase = phaseOf(health, now, pollMs());
  const view = { phase, detail: health.failure?.detail, heardAt: health.heardAt, now, pollSeconds: pollMs() / 1000, page: { index: cursors.length - 1, older: !!olderCursor } };
  renderPhase(view);
  const fresh = phase === 'live' || phase === 'reconnecting';
  if (fresh && (figures || !shownFresh)) renderFigures(state, view, actions());
  shownFresh = fresh;
};

/** A failed call: a refusal or no answer; either hides the figures until the API answers again. */
const failed = (error: unknown, at = Date.now()) => {
  if (error instanceof Refused) {
    if (error.status === 401) askToSignIn();
    const detail =
      error.status === 401
        ? 'Sign in to see the board.'
        : currentSession()
          ? `Your role may not read this board (${error.message}).`
          : `The API refused the board's key (${error.message}): check apiKey in config.json.`;
    record({ type: 'failed', kind: 'unauthorised', detail, at });
  } else {
    const detail = error instanceof Error ? error.message : String(error);
    record({ type: 'failed', kind: 'unreachable', detail: error instanceof Unreachable || error instanceof Declined ? detail : `The board failed: ${detail}`, at });
  }
  render();
};

const heard = (at: number) => {
  record({ type: 'heard', at });
  $('error').textContent = '';
};

const scopeQuery = (params: URLSearchParams) => {
  if (filter.regionName !== 'all') params.set('region', filter.regionName);
  if (filter.locationName !== 'all') params.set('location', filter.locationName);
  if (filter.roomName !== 'all') params.set('room', filter.roomName);
  return params;
};

const alarmPage = (cursor: string | undefined) => {
  const params = scopeQuery(new URLSearchParams({ limit: String(PAGE_SIZE) }));
  if (cursor) params.set('cursor', cursor);
  return api<Page<Alarm>>('GET', `/alarms?${params}`);
};

/** Every firing alarm in scope (for the marks), a page of 1000 at a time. */
const allFiring = async (): Promise<Alarm[]> => {
  const alarms: Alarm[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < FIRING_PAGES && (page === 0 || cursor); page++) {
    const params = scopeQuery(new URLSearchParams({ state: 'firing', limit: '1000' }));
    if (cursor) params.set('cursor', cursor);
    const answer: Page<Alarm> = await api<Page<Alarm>>('GET', `/alarms?${params}`);
    alarms.push(...answer.items);
    cursor = answer.nextCursor;
  }
  return alarms;
};

/** The whole picture from the REST API (on subscribe, every poll while the socket is down, and now and then while live). */
const reload = (): Promise<void> => {
  loading ??= (async () => {
    pending = [];
    const at = Date.now();
    const scope = filter;
    let again = false;
    try {
      const [rooms, page, firing] = await Promise.all([api<Room[]>('POST', '/live/rooms', scope), alarmPage(cursors.at(-1)), allFiring()]);
      // the scope changed meanwhile: this picture is of the old one, load the new one instead
      if (scope !== filter) again = true;
      else {
        state = loaded(state, rooms, page.items, new Date(at).toISOString(), firing);
        olderCursor = page.nextCursor;
        for (const message of pending) state = applyMessage(state, message);
        pictureLoaded = true;
        heard(at);
        if (!scopeFilled) void fillScope().catch(failed);
      }
    } catch (error) {
      if (scope === filter) failed(error, at);
      else again = true;
    } finally {
      pending = undefined;
      loading = undefined;
      render();
    }
    if (again) await reload();
  })();
  return loading;
};

/**
 * While live: does the API still answer, and does it count what the board shows? A room count
 * that differs (a push lost on the way) loads the whole picture again.
 */
const check = async () => {
  if (loading) return;
  if (!pictureLoaded) return reload();
  const at = Date.now();
  const scope = filter;
  try {
    const counts = await api<Record<string, number>>('POST', '/videoDevice/room/roomStatusCount', scope);
    const shown = countsOf(state) as unknown as Record<string, number>;
    if (loading || scope !== filter || !pictureLoaded) return;
    if (Object.keys(shown).some((name) => shown[name] !== counts[name])) return await reload();
    heard(at);
  } catch (error) {
    failed(error, at);
  }
  render();
};

/** One beat every poll interval: a check while the socket is up, a full reload while it is down. */
const startTicking = () => {
  window.clearInterval(tickTimer);
  tickTimer = window.setInterval(() => {
    if (signedOut) return;
    if (socket?.readyState === WebSocket.OPEN && health.socketOpen) void check();
    else void reload();
  }, pollMs());
  // while live, a fresh picture now and then: windows open and close without any push
  window.clearInterval(reloadTimer);
  reloadTimer = window.setInterval(() => {
    if (!signedOut && socket?.readyState === WebSocket.OPEN) void reload();
  }, (config.reloadSeconds ?? 60) * 1000);
};

const stopLoops = () => {
  window.clearInterval(tickTimer);
  window.clearInterval(reloadTimer);
  window.clearTimeout(retryTimer);
  tickTimer = reloadTimer = retryTimer = undefined;
  const open = socket;
  socket = undefined;
  open?.close();
  record({ type: 'socket', open: false });
};

const onMessage = (message: Message) => {
  if (message.type === 'subscribed') {
    retries = 0;
    record({ type: 'socket', open: true });
    void reload();
    return;
  }
  if (message.type === 'error') {
    $('error').textContent = message.message;
    return;
  }
  if (pending) pending.push(message);
  else state = applyMessage(state, message);
  render();
};

/** Opens the socket with a fresh ticket; on any failure the ticks poll, and it retries with backoff. */
const connect = async () => {
  window.clearTimeout(retryTimer);
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
    failed(error);
    lost();
  }
};

const lost = () => {
  if (signedOut) return;
  socket = undefined;
  record({ type: 'socket', open: false });
  render();
  void reload();
  retries++;
  retryTimer = window.setTimeout(() => void connect(), Math.min(15_000, 1000 * 2 ** Math.min(retries, 4)));
};

/** Shows the sign-in form and stops every loop until someone signs in. */
const askToSignIn = () => {
  if (signedOut) return;
  signedOut = true;
  stopLoops();
  $('signin').hidden = false;
  showWho();
  $<HTMLInputElement>('username').focus();
};

const showWho = () => {
  const session = currentSession();
  $('who').textContent = session ? `signed in as ${session.username}` : '';
  $('who').hidden = !session;
  $('signout').hidden = !session;
};

const onSignIn = async (event: SubmitEvent) => {
  event.preventDefault();
  try {
    await signIn($<HTMLInputElement>('username').value, $<HTMLInputElement>('password').value);
  } catch (error) {
    $('signin-error').textContent = error instanceof Error ? error.message : String(error);
    return;
  }
  $<HTMLInputElement>('password').value = '';
  $('signin-error').textContent = '';
  $('signin').hidden = true;
  signedOut = false;
  retries = 0;
  record({ type: 'reset' });
  pictureLoaded = false;
  showWho();
  render();
  await start();
};

const onSignOut = async () => {
  await signOut();
  state = emptyState(PAGE_SIZE, filter);
  pictureLoaded = false;
  record({ type: 'failed', kind: 'unauthorised', detail: 'Signed out: sign in to see the board.', at: Date.now() });
  askToSignIn();
  render();
};

const fillSelect = async (id: string, path: string, body: Partial<Filter>, chosen: string) => {
  const names = await api<string[]>('POST', path, body);
  const select = $<HTMLSelectElement>(id);
  select.replaceChildren(...['all', ...names].map((name) => new Option(name, name, false, name === chosen)));
};

const fillScope = async () => {
  const region = filter.regionName === 'all' ? {} : { regionName: filter.regionName };
  const location = filter.locationName === 'all' ? region : { ...region, locationName: filter.locationName };
  await Promise.all([
    fillSelect('region', '/filters/region', {}, filter.regionName),
    fillSelect('location', '/filters/location', region, filter.locationName),
    fillSelect('room', '/filters/room', location, filter.roomName),
  ]);
  scopeFilled = true;
};

/** A new scope: the board holds nothing of it yet, so it says "loading" until the API answers. */
const changeScope = (next: Filter) => {
  filter = next;
  state = emptyState(PAGE_SIZE, next);
  cursors = [undefined];
  pictureLoaded = false;
  record({ type: 'reset' });
  render();
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ action: 'subscribe', filter }));
  else void reload();
  void fillScope().catch(failed);
};

/** Another page of the alarm list (the API's cursor); the newest page is the one pushes add to. */
const turnPageNow = async (older: boolean) => {
  if (older ? !olderCursor : cursors.length === 1) return;
  const next = older ? [...cursors, olderCursor ?? undefined] : cursors.slice(0, -1);
  try {
    const page = await alarmPage(next.at(-1));
    cursors = next;
    olderCursor = page.nextCursor;
    state = showPage(state, page.items, cursors.length === 1);
  } catch (error) {
    failed(error);
  }
  render();
};

/** Clicks turn pages one after the other: two quick clicks on "Older" go two pages on, not one. */
let turning: Promise<void> = Promise.resolve();
const turnPage = (older: boolean) => {
  turning = turning.then(() => turnPageNow(older));
  return turning;
};

/** What whoever the board acts for may do from it (actions.ts). */
const { actions, wire: wireActions } = boardActions({
  state: () => state,
  update: (next) => {
    state = next;
  },
  reload,
  failed,
  render: () => render(),
});

/** The scope lists, then the live connection; a 401 on the way shows the sign-in form instead. */
const start = async () => {
  await fillScope().catch(failed);
  if (signedOut) return;
  startTicking();
  await connect();
};

const main = async () => {
  try {
    config = (await (await fetch('config.json', { cache: 'no-store' })).json()) as Config;
  } catch (error) {
    $('error').textContent = `config.json could not be read: ${error instanceof Error ? error.message : String(error)}`;
    return;
  }
  configure(config);
  $('api').textContent = config.apiUrl;
  $('time-zone').textContent = Intl.DateTimeFormat().resolvedOptions().timeZone;
  $<HTMLSelectElement>('region').onchange = (event) => changeScope({ regionName: (event.target as HTMLSelectElement).value, locationName: 'all', roomName: 'all' });
  $<HTMLSelectElement>('location').onchange = (event) => changeScope({ ...filter, locationName: (event.target as HTMLSelectElement).value, roomName: 'all' });
  $<HTMLSelectElement>('room').onchange = (event) => changeScope({ ...filter, roomName: (event.target as HTMLSelectElement).value });
  $<HTMLFormElement>('signin').onsubmit = (event) => void onSignIn(event);
  $('signout').onclick = () => void onSignOut();
  $('alarms-older').onclick = () => void turnPage(true);
  $('alarms-newer').onclick = () => void turnPage(false);
  wireActions();
  // the phase moves with the clock alone (stale, "N s ago"): look again every second
  window.setInterval(() => render(false), 1000);
  showWho();
  render();
  await start();
};

void main();
