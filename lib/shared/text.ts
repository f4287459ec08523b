/*
 * Text from outside (vendors, incident tools, clients) made fit to store and show.
 */

/**
 * Characters that change how a name is shown without being seen: Unicode's default-ignorable code
 * points (bidirectional embeddings, overrides, isolates and marks, zero-width characters, soft
 * hyphens, fillers, tags, invisible operators, variation selectors) and the line and paragraph
 * separators. Two names that look alike but differ
 * by one of these would be two rooms, and an override can make a name read as another
 * (docs/guide/rules/inventory.md "Invisible characters: stripped from vendor names, refused in user input"). Vendor names lose them; user input holding one is refused (schemas/shared.ts).
 */
export const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2028\u2029]/u;
const INVISIBLE_ALL = /[\p{Default_Ignorable_Code_Point}\u2028\u2029]+/gu;

/** Printable ASCII only: nothing to strip or refuse (most names and texts; checked first, as it is cheap). */
export const PLAIN = /^[\x20-\x7E]*$/;

export const stripInvisible = (text: string): string => (!PLAIN.test(text) && INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, '') : text);

/** The first `max` UTF-16 units of a text, one fewer when the cut would split a surrogate pair (an emoji): the text stays well-formed Unicode. */
export const cutBetweenCharacters = (value: string, max: number): string => {
  const cut = value.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
};
