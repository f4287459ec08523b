import http from '#generated/routes/providersList';
import { providersReport } from '#lib/inventory';
import { failureSeenBy } from '#lib/shared/access';

// GET /providers -> 200 each device provider's standing (DESIGN §6); a scoped caller reads a failure without the vendor's
// words, the rest alike (docs/guide/rules/access.md "Filter configurations and a device's filter are narrowed to the scope")
export const handler = http(async ({ principal }) => {
  const report = await providersReport();
  const providers = report.providers.map((provider) => (provider.lastError ? { ...provider, lastError: failureSeenBy(provider.lastError, principal.scope) } : provider));
  return { statusCode: 200, body: { ...report, providers } };
});
