import { readFileSync } from 'node:fs';

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The headings of a Markdown file, without their `#` marks. */
export const headingsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
    .map((line) => line.replace(/^#+\s*/, ''));

/** The anchors a link may name in a Markdown file. */
export const anchorsOf = (file: string) => new Set(headingsOf(file).map(slug));
