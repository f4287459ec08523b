import escapeHtml from 'escape-html';
import { reportHtml, reportText } from '#lib/reports/pure/render';
import { headerText } from '#lib/shared/header';
import { alarmLine, byRoom, introOf, moreLine, subjectOf } from '#lib/notify/pure/digest';
import type { Digest } from '#lib/notify/types';
import type { Mail } from '../types';

const text = (digest: Digest): string => {
  const lines = [introOf(digest)];
  for (const group of byRoom(digest.alarms)) {
    lines.push('', `${group.room} (${group.alarms.length})`, ...group.alarms.map((a) => `  - ${alarmLine(a)}`));
  }
  const more = moreLine(digest);
  if (more) lines.push('', more);
  if (digest.watcher) lines.push('', `Watcher: ${digest.watcher.id}`);
  return lines.join('\n');
};

const html = (digest: Digest): string => {
  const parts = [`<p>${escapeHtml(introOf(digest))}</p>`];
  for (const group of byRoom(digest.alarms)) {
    parts.push(
      `<h3>${escapeHtml(group.room)} (${group.alarms.length})</h3>`,
      `<ul>${group.alarms.map((a) => `<li>${escapeHtml(alarmLine(a))}</li>`).join('')}</ul>`,
    );
  }
  const more = moreLine(digest);
  if (more) parts.push(`<p>${escapeHtml(more)}</p>`);
  if (digest.watcher) parts.push(`<p style="color:#666">Watcher: ${escapeHtml(digest.watcher.id)}</p>`);
  return `<!doctype html><html><body>${parts.join('\n')}</body></html>`;
};

/** The mail of one delivery of a digest: plain text and HTML telling the same. Its id is the delivery's. */
export const digestMail = (digest: Digest, deliveryId: string, to: readonly string[]): Mail => ({
  id: deliveryId,
  to: [...to],
  subject: headerText(subjectOf(digest)),
  text: digest.report ? reportText(digest.report) : text(digest),
  html: digest.report ? reportHtml(digest.report) : html(digest),
});
