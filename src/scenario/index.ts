/** Scenario files: loaded (`loadScenario`) and run against the facade (`runScenario`). */
export { loadScenario } from './load-scenario.ts';
export { runScenario } from './run-scenario.ts';
