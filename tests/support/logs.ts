import { vi } from 'vitest';
import type { logger as appLogger } from '#lib/shared/log';

/** Every line `logger` writes from now on, at any level, as the JSON of its arguments (the logger writes nothing itself). */
export const capturedLines = (logger: typeof appLogger): string[] => {
  const lines: string[] = [];
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => void lines.push(JSON.stringify(args)));
  }
  return lines;
};
