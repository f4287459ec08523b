import http from '#generated/routes/providersList';
import { providersReport } from '#lib/inventory/providerReport';

// GET /providers -> 200 each device provider's standing (DESIGN §6)
export const handler = http(async () => ({ statusCode: 200, body: await providersReport() }));
