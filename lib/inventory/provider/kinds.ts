/** The kinds of provider, each configured by its own settings (README "Device providers"). */
const PROVIDER_KINDS = ['webex', 'zoom', 'http', 'simulated'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** The names of the configured providers: DEVICE_PROVIDERS (comma-separated), else DEVICE_PROVIDER, else none. */
export const configuredNames = (env: NodeJS.ProcessEnv = process.env): ProviderKind[] => {
  const listed = (env.DEVICE_PROVIDERS || env.DEVICE_PROVIDER || '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of listed) {
    if (!(PROVIDER_KINDS as readonly string[]).includes(name)) throw new Error(`DEVICE_PROVIDERS names ${name}; known: ${PROVIDER_KINDS.join(', ')}`);
  }
  return [...new Set(listed)] as ProviderKind[];
};
