/** A summary of counts and completion flags, possibly nested (a run's, a pass's, the notifier's). */
type Tally<T> = { [K in keyof T]: T[K] extends number | boolean ? T[K] : Tally<T[K]> };

type Fields = Record<string, unknown>;

/** Two tallies of one shape as one: numbers added, flags true only when both are, nested tallies alike. */
export const addUp = <T extends Tally<T>>(a: T, b: T): T => {
  const sum = (x: Fields, y: Fields): Fields => {
    const out: Fields = {};
    for (const [key, value] of Object.entries(x)) {
      const other = y[key];
      if (typeof value === 'number') out[key] = value + (typeof other === 'number' ? other : 0);
      else if (typeof value === 'boolean') out[key] = value && other === true;
      else out[key] = sum(value as Fields, (other ?? {}) as Fields);
    }
    return out;
  };
  return sum(a as Fields, b as Fields) as T;
};
