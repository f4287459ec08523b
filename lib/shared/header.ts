/**
 * Text bound for a mail header (the subject): control characters (CR and LF above all, which
 * would start a new header) and lone surrogates become one space each run. Request schemas
 * already refuse them in names and watcher descriptions; this holds for anything else too.
 */
export const headerText = (text: string): string => text.replace(/[\p{Cc}\p{Cs}]+/gu, ' ');
