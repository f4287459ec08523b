// The public module of lib/alarms/engine: what other domains, functions, contracts and bindings use of it.
// Anything outside lib/alarms/engine/ imports it from here ('#lib/alarms/engine'), never a file inside (tests/unit/layers.test.ts).
export { runEvaluation } from './run';
export { runQueue } from './runPasses';
