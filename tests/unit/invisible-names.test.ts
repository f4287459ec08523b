import { describe, expect, it } from 'vitest';
import { describeSchemaErrors, type CompiledValidator } from '#lib/shared/validation';
import validateAllDevices from '#generated/validators/devicesAllDevices';
import validateUpsertList from '#generated/validators/filterConfigsUpsertList';
import validateWatcher from '#generated/validators/watchersCreate';
import { watcherInput } from '../support/fleet';

// User input names refuse the invisible characters that vendor names lose (docs/guide/rules/inventory.md "Invisible characters: stripped from vendor names, refused in user input"): a
// name a user types is matched against stored names, which never hold one.
const INVISIBLE = ['\u202e', '\u202a', '\u2066', '\u2069', '\u200e', '\u200f', '\u061c', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
// the rest of Unicode's default-ignorable code points and the line separators: a soft hyphen, a
// Mongolian vowel separator, an invisible operator, a combining grapheme joiner, a Hangul filler, a tag
const OTHER_INVISIBLE = ['\u00ad', '\u180e', '\u2062', '\u034f', '\u3164', '\u{e0041}', '\u2028', '\u2029'];

const problems = (validate: CompiledValidator, event: unknown) => (validate(event) ? [] : describeSchemaErrors(validate.errors));

describe('names with bidirectional controls or zero-width characters', () => {
  it.each([...INVISIBLE, ...OTHER_INVISIBLE].map((char) => [char.codePointAt(0)!.toString(16), char]))('a device filter refuses U+%s, naming the field', (_, char) => {
    const found = problems(validateAllDevices, { body: { regionName: 'all', locationName: `Ber${char}lin`, roomName: 'all' } });
    expect(found.map((p) => p.field)).toEqual(['body.locationName']);
    expect(found[0]!.message).toBe('body.locationName must be a non-empty name without control, bidirectional-control, zero-width or other invisible characters, or "all"');
  });

  it('a filters configuration name and a watcher name refuse them too', () => {
    expect(problems(validateUpsertList, { body: [{ id: 1, region: 'EMEA\u202e', locations: [] }] }).map((p) => p.field)).toEqual(['body[0].region']);
    const watcher = watcherInput({ user: 'ana', type: 'connectivity' });
    expect(problems(validateWatcher, { body: { ...watcher, dashboard: 'ops\u200b' } }).map((p) => p.field)).toEqual(['body.dashboard']);
  });

  it('names in any script, accents and emoji stay accepted', () => {
    for (const name of ['Café Zürich', '会议室 3', 'غرفة الاجتماعات', 'Room 🎥', 'all (webex)']) {
      expect(problems(validateAllDevices, { body: { regionName: 'all', locationName: name, roomName: 'all' } })).toEqual([]);
    }
  });
});
