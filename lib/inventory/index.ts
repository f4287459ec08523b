// The public module of lib/inventory: what other domains, functions, contracts and bindings use of it.
// Anything outside lib/inventory/ imports it from here ('#lib/inventory'), never a file inside (tests/unit/layers.test.ts).
export { fleetProvider, providersFromEnv } from './provider/index';
export { providersReport } from './providerReport';
export { applyConnectivity, type ConnectivityObservation, type ConnectivityOutcome } from './observe';
export { refreshDevice } from './refresh';
export { REFRESH_TIMEOUT_MS, askingWithin, providerBudget } from './refreshBudget';
export { SYNC_LEASE_WAIT_MS, syncAlone } from './syncLease';
export { pollAlone } from './statusPoll';
export { receiveZoomEvent, type ZoomAnswer } from './vendorEvents';
