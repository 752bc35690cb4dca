/**
 * Child-process half of the determinism test (test/property/determinism.test.ts): reads engine
 * configs with command streams as JSON on stdin, replays each into a fresh engine in THIS
 * process and prints, per stream, the SHA-256 of its events and the state hash (one JSON line).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Engine, type EngineCommand, type EngineConfig } from '../../src/engine/index.ts';

const runs = JSON.parse(readFileSync(0, 'utf8')) as { config: EngineConfig; commands: EngineCommand[] }[];
const results = runs.map(({ config, commands }) => {
  const engine = new Engine(config);
  const events = commands.map((command) => engine.apply(command));
  return { eventsHash: createHash('sha256').update(JSON.stringify(events)).digest('hex'), stateHash: engine.stateHash() };
});
process.stdout.write(`${JSON.stringify(results)}\n`);
