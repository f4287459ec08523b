/*
 * What an operator does from the board: acknowledge an alarm (POST /alarms/{id}/ack) and silence
 * a room that is not OK (POST /silences, for a chosen time, with a comment). Offered only to
 * whoever may (api.ts `may`); the API decides anyway. A refusal or a conflict is said beside
 * the action, not as a state of the whole board.
 */
import { api, Declined, may, Refused } from './api';
import { alarmChanged, roomKey, type Alarm, type BoardState, type Room } from './state';
import { localTime } from './time';
import { $, type Actions } from './view';

/** What the actions need of the board. */
export interface Board {
  state: () => BoardState;
  update: (state: BoardState) => void;
  reload: () => Promise<void>;
  /** A failure of the API as a whole (unreachable, signed out): the board's state says it. */
  failed: (error: unknown) => void;
  render: () => void;
}

const say = (text: string) => {
  $('action-message').textContent = text;
};

const declined = (error: unknown): string | undefined =>
  error instanceof Declined || (error instanceof Refused && error.status !== 401) ? error.message : undefined;

export const boardActions = (board: Board) => {
  const acknowledge = async (alarm: Alarm) => {
    try {
      const answer = await api<Alarm>('POST', `/alarms/${encodeURIComponent(alarm.id)}/ack`, {});
      board.update(alarmChanged(board.state(), answer));
      say(`Acknowledged ${alarm.devicesn} in ${alarm.room}.`);
    } catch (error) {
      const reason = declined(error);
      if (reason) say(`Not acknowledged: ${reason}`);
      else board.failed(error);
    }
    board.render();
  };

  let silencing: Room | undefined;
  const askSilence = (room: Room) => {
    silencing = room;
    $('silence-room').textContent = roomKey(room);
    $('silence-error').textContent = '';
    $<HTMLDialogElement>('silence-dialog').showModal();
    $<HTMLInputElement>('silence-comment').focus();
  };

  const silence = async (event: SubmitEvent) => {
    event.preventDefault();
    const room = silencing;
    if (!room) return;
    const endsAt = new Date(Date.now() + Number($<HTMLSelectElement>('silence-hours').value) * 3_600_000).toISOString();
    try {
      await api('POST', '/silences', { matchers: { region: room.region, location: room.location, room: room.room }, endsAt, comment: $<HTMLInputElement>('silence-comment').value });
    } catch (error) {
      $('silence-error').textContent = error instanceof Error ? error.message : String(error);
      return;
    }
    $<HTMLDialogElement>('silence-dialog').close();
    $<HTMLInputElement>('silence-comment').value = '';
    say(`Silenced ${roomKey(room)} until ${localTime(endsAt)}.`);
    // the API announces the silence on the socket too; a load makes the marks certain
    await board.reload();
  };

  return {
    /** The actions the tiles and the alarm list offer now (they follow the person signed in). */
    actions: (): Actions => ({
      acknowledge: may('alarms:ack') ? (alarm) => void acknowledge(alarm) : undefined,
      silence: may('silences:write') ? askSilence : undefined,
    }),
    wire: () => {
      $<HTMLFormElement>('silence-form').onsubmit = (event) => void silence(event);
      $('silence-cancel').onclick = () => $<HTMLDialogElement>('silence-dialog').close();
    },
  };
};
