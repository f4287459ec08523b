/*
 * Preloaded (NODE_OPTIONS=--import) into a private `npm start` by tests that must let hours
 * pass (repeat notifications): every Date.now() and new Date() of that process tree runs ahead
 * of the real clock by the number of milliseconds written in CLOCK_SHIFT_FILE (0 when the file
 * is missing). Test support only: nothing outside tests/ loads it.
 */
import { readFileSync } from 'node:fs';

const file = process.env.CLOCK_SHIFT_FILE;
if (file) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  let shift = 0;
  let readAt = Number.NEGATIVE_INFINITY;
  const shiftNow = () => {
    const now = realNow();
    if (now - readAt > 50) {
      readAt = now;
      try {
        shift = Number(readFileSync(file, 'utf8')) || 0;
      } catch {
        shift = 0;
      }
    }
    return shift;
  };
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + shiftNow());
      else super(...args);
    }
    static now() {
      return realNow() + shiftNow();
    }
  }
  globalThis.Date = ShiftedDate;
}
