import { describe, expect, it } from 'vitest';
import { Invalid } from '#lib/shared/errors';
import { createWindow } from '#lib/maintenance/service';
import type { WindowInput } from '#lib/maintenance/types';
import type { AccessScope } from '#lib/shared/access';

// Hostile review of issue 28 (probe28): scope leaks through the new routes' answers.

const emea: AccessScope = [{ region: 'EMEA' }];
const outcome = (error: unknown) => (error instanceof Error ? `${error.constructor.name} ${JSON.stringify((error as Invalid).details ?? [])}` : 'created');

describe('a scoped caller creating a maintenance window without timeZone for a location outside its scope', () => {
  it('gets the same answer whether that location has a profile or not, and no profile is read', async () => {
    const read: string[] = [];
    const placeTimeZone = async (matchers: { location?: string }) => {
      read.push(matchers.location ?? '');
      return matchers.location === 'New York' ? 'America/New_York' : undefined;
    };
    const body = (location: string): WindowInput => ({
      matchers: { region: 'AMER', location },
      schedule: { days: ['TU'], start: '22:00', durationMinutes: 60 },
      comment: 'probe',
    });
    const withProfile = await createWindow(body('New York'), 'scoped', emea, { placeTimeZone }).catch((e: unknown) => e);
    const without = await createWindow(body('Nowhere'), 'scoped', emea, { placeTimeZone }).catch((e: unknown) => e);
    expect(outcome(withProfile)).toBe(outcome(without));
    expect(withProfile).toBeInstanceOf(Error);
    expect(read).toEqual([]);
    // within the scope the place's zone is still the default
    const inside = await createWindow({ ...body('London'), matchers: { region: 'EMEA', location: 'London' } }, 'scoped', emea, { placeTimeZone: async () => 'Europe/London' });
    expect(inside.schedule.timeZone).toBe('Europe/London');
  });
});
