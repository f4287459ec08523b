/*
 * What the board draws from its state: the banner and, in place of the figures while the board
 * cannot vouch for them, the reason in words; otherwise the counts, the groups of tiles and a
 * page of open alarms. Every time carries its UTC form as a tooltip.
 */
import { groupRooms, marksOf, type Group, type Mark } from './groups';
import { FRESH, PHASE_WORDS, type Phase } from './health';
import { countsOf, openMaintenance, roomKey, roomsApart, SEVERITY_NAMES, type Alarm, type BoardState, type Room } from './state';
import { localTime, utcTime } from './time';

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export interface Actions {
  /** Present when whoever the board acts for may acknowledge alarms. */
  acknowledge?: (alarm: Alarm) => void;
  /** Present when whoever the board acts for may create silences. */
  silence?: (room: Room) => void;
}

const MARK_SYMBOLS: Record<Mark, string> = { acknowledged: '✔', silenced: '🔕', maintenance: '🔧' };

/** A time in the viewer's zone, its UTC form on hover. */
export const timeElement = (iso: string): HTMLTimeElement => {
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = localTime(iso);
  time.title = utcTime(iso);
  return time;
};

const span = (className: string, text: string, title?: string) => {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  if (title) element.title = title;
  return element;
};

/** A room's tile: status colour, devices online, its marks, and the silence action. */
const tileOf = (room: Room, firing: readonly Alarm[], now: string, actions: Actions) => {
  const tile = document.createElement('div');
  tile.className = 'tile';
  tile.dataset.room = roomKey(room);
  tile.dataset.status = room.roomStatus;
  const marks = marksOf(room, firing, now);
  tile.dataset.marks = marks.marks.join(' ');
  tile.title = `${roomKey(room)}: ${room.roomStatus}, ${room.online} of ${room.deviceCount} online`;
  const name = document.createElement('strong');
  name.textContent = room.room;
  tile.append(name, span('devices', `${room.online}/${room.deviceCount} online`));
  const badges = document.createElement('span');
  badges.className = 'marks';
  for (const mark of marks.marks) badges.append(span('mark', MARK_SYMBOLS[mark], mark === 'maintenance' ? 'in maintenance' : `${mark}: every firing alarm of the room`));
  // some but not all of the room's alarms acknowledged: say how many
  if (marks.acknowledged > 0 && !marks.marks.includes('acknowledged')) badges.append(span('mark partial', `✔ ${marks.acknowledged}/${marks.firing}`, `${marks.acknowledged} of ${marks.firing} firing alarms acknowledged`));
  if (badges.childElementCount > 0) tile.append(badges);
  const held = openMaintenance(room, now);
  if (held.length > 0) {
    tile.dataset.maintenance = held.map((window) => window.id).join(' ');
    const windows = span('maintenance', '');
    held.forEach((window, i) => windows.append(`${i ? '; ' : ''}${window.comment || 'maintenance'} until `, timeElement(window.closesAt)));
    tile.append(windows);
  }
  // silencing is what one does to a room that is not OK; planned work is a maintenance window
  if (actions.silence && room.roomStatus !== 'OK') {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'silence';
    button.textContent = 'Silence';
    button.setAttribute('aria-label', `Silence ${roomKey(room)}`);
    button.onclick = () => actions.silence?.(room);
    tile.append(button);
  }
  return tile;
};

const groupOf = (group: Group, firing: readonly Alarm[], now: string, actions: Actions) => {
  const section = document.createElement('section');
  section.className = 'group';
  section.dataset.region = group.region;
  section.dataset.location = group.location;
  section.dataset.worst = group.worst;
  const heading = document.createElement('h3');
  const counts = Object.entries(group.counts)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${count} ${status}`)
    .join(' · ');
  heading.append(
    span('where', `${group.location}, ${group.region}`),
    span('worst', `worst: ${group.worst}`),
    span('group-counts', `${group.rooms.length} room${group.rooms.length === 1 ? '' : 's'}: ${counts}`),
  );
  heading.dataset.status = group.worst;
  const grid = document.createElement('div');
  grid.className = 'grid';
  grid.append(...group.rooms.map((room) => tileOf(room, firing, now, actions)));
  section.append(heading, grid);
  return section;
};

const alarmItem = (alarm: Alarm, actions: Actions) => {
  const item = document.createElement('li');
  item.dataset.id = alarm.id;
  item.dataset.severity = SEVERITY_NAMES[alarm.severity] ?? 'Info';
  const flags = [alarm.acknowledged ? 'acknowledged' : '', alarm.silenced ? 'silenced' : '', alarm.inMaintenance?.length ? 'in maintenance' : ''].filter(Boolean);
  item.dataset.marks = flags.join(' ');
  item.append(
    `${SEVERITY_NAMES[alarm.severity] ?? alarm.severity} · ${alarm.devicesn} · ${alarm.room}, ${alarm.location} · `,
    timeElement(alarm.raisedAt),
    `${alarm.description ? ` · ${alarm.description}` : ''}${flags.length ? ` (${flags.join(', ')})` : ''}`,
  );
  if (actions.acknowledge && !alarm.acknowledged) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ack';
    button.textContent = 'Acknowledge';
    button.onclick = () => actions.acknowledge?.(alarm);
    item.append(' ', button);
  }
  return item;
};

export interface View {
  phase: Phase;
  /** What went wrong, in the API's or the browser's words. */
  detail?: string;
  /** When the board last heard from the API (ms since the epoch). */
  heardAt?: number;
  now: number;
  pollSeconds: number;
  page: { index: number; older: boolean };
}

/** A detail as a sentence of its own, so that what follows it reads apart. */
const sentence = (text: string) => (text === '' || /[.!?]$/.test(text) ? text : `${text}.`);

const ago = (ms: number) => (ms < 90_000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60_000)} min ago`);

const PANEL_TITLES: Record<Phase, string> = {
  loading: 'Loading',
  live: '',
  reconnecting: '',
  unreachable: 'API unreachable',
  unauthorised: 'Not authorised',
  stale: 'Stale',
};

/** The banner, and either the figures or, in their place, why there are none. */
export const renderPhase = (view: View) => {
  const fresh = FRESH.includes(view.phase);
  const badge = $('connection');
  badge.dataset.state = view.phase;
  badge.textContent = view.phase === 'live' ? 'live' : view.phase === 'reconnecting' ? 'reconnecting… (polling)' : PANEL_TITLES[view.phase];
  const since = view.heardAt === undefined ? 'No update from the API yet.' : `Last update ${ago(view.now - view.heardAt)}, at ${localTime(new Date(view.heardAt).toISOString())}.`;
  const banner = $('banner');
  banner.dataset.state = view.phase;
  banner.hidden = view.phase === 'live';
  banner.textContent = fresh ? PHASE_WORDS[view.phase] : `${PHASE_WORDS[view.phase]}. ${since}`;
  $('figures').hidden = !fresh;
  const panel = $('no-figures');
  panel.hidden = fresh;
  panel.dataset.state = view.phase;
  $('no-figures-title').textContent = PANEL_TITLES[view.phase];
  const detail =
    view.phase === 'stale'
      ? `Nothing heard from the API for longer than the poll interval (${view.pollSeconds} s): the figures are hidden until it answers again.`
      : view.phase === 'loading'
        ? 'Waiting for the first answer from the API.'
        : `${sentence(view.detail ?? '')}${view.phase === 'unreachable' ? ` Retrying every ${view.pollSeconds} s.` : ''}`;
  $('no-figures-detail').textContent = detail;
  $('no-figures-since').textContent = view.phase === 'loading' ? '' : since;
};

/** The figures: counts, groups, rooms in maintenance apart, and the page of open alarms. */
export const renderFigures = (state: BoardState, view: View, actions: Actions) => {
  for (const [name, value] of Object.entries(countsOf(state))) $(`count-${name}`).textContent = String(value);
  const now = new Date(view.now).toISOString();
  const firing = [...state.firing.values()];
  const { inService, inMaintenance } = roomsApart(state, now);
  $('rooms').replaceChildren(...groupRooms(inService).map((group) => groupOf(group, firing, now, actions)));
  $('maintenance-rooms').replaceChildren(...inMaintenance.map((room) => tileOf(room, firing, now, actions)));
  $('maintenance-section').hidden = inMaintenance.length === 0;
  $('firing-count').textContent = `(${state.firing.size} firing)`;
  $('alarms').replaceChildren(...state.alarms.map((alarm) => alarmItem(alarm, actions)));
  $('empty-alarms').hidden = state.alarms.length > 0 || view.page.index > 0;
  $('alarm-page').textContent = `page ${view.page.index + 1}`;
  $<HTMLButtonElement>('alarms-newer').disabled = view.page.index === 0;
  $<HTMLButtonElement>('alarms-older').disabled = !view.page.older;
};
