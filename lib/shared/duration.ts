/** How long something lasted, in its two largest units: "3h 5m", "2d 4h", "42s". */
export const durationText = (seconds: number): string => {
  let left = Math.max(0, Math.round(seconds));
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60]] as const) {
    if (left >= size) {
      parts.push(`${Math.floor(left / size)}${unit}`);
      left %= size;
    }
  }
  if (left > 0 || parts.length === 0) parts.push(`${left}s`);
  return parts.slice(0, 2).join(' ');
};
