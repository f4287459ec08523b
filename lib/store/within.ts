import type { PlaceFilter } from '#lib/shared/access';
import type { Expr } from './expression';

// A filter term: the item's own region, location and room in one of the place filters (`#w`, `:w` placeholders).
const FIELDS = ['region', 'location', 'room'] as const;

type Condition = Required<Expr>;

/** The term, or undefined when some filter names nothing (every item lies in it). */
export const withinCondition = (filters: readonly PlaceFilter[]): Condition | undefined => {
  if (filters.length === 0) throw new Error('withinCondition needs at least one place filter (a read of nothing asks the store nothing)');
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const alternatives: string[] = [];
  for (const [i, filter] of filters.entries()) {
    const terms: string[] = [];
    for (const field of FIELDS) {
      const value = filter[field];
      if (value === undefined) continue;
      names[`#w${field}`] = field;
      values[`:w${i}${field}`] = value;
      terms.push(`#w${field} = :w${i}${field}`);
    }
    if (terms.length === 0) return undefined;
    // DynamoDB refuses redundant parentheses: only a group of terms inside an OR gets its own
    alternatives.push(terms.length > 1 && filters.length > 1 ? `(${terms.join(' AND ')})` : terms.join(' AND '));
  }
  return { expression: alternatives.length > 1 ? `(${alternatives.join(' OR ')})` : alternatives[0]!, names, values };
};
