// The public module of lib/live: what other domains, functions, contracts and bindings use of it.
// Anything outside lib/live/ imports it from here ('#lib/live'), never a file inside (tests/unit/layers.test.ts).
export { enableLivePush } from './push';
export { admit, connect, disconnect, issueTicket, subscribe } from './session';
export { reply, socket } from './socket';
export type { Connections } from './types';
