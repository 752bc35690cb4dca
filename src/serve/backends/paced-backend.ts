/**
 * The static market's backend: a bare engine (EngineBackend) whose simulated time follows the
 * pacing, caught up lazily whenever it is read (before every request). No tape, so no hooks: the
 * market streams pump around requests and on the sockets' tick.
 */
import { EngineBackend } from '../../api-facade/index.ts';
import type { Pacing } from '../../clock/index.ts';
import type { EngineCommand, EngineConfig } from '../../engine/index.ts';

export class PacedBackend extends EngineBackend {
  readonly #pacing: Pacing;

  constructor(config: EngineConfig, pacing: Pacing, setup: readonly EngineCommand[]) {
    super(config, pacing.anchor.simulated, []);
    this.#pacing = pacing;
    for (const command of setup) this.applyRaw(command);
  }

  override get now(): number {
    const paced = this.#pacing.simulatedNow();
    if (paced > super.now) this.advanceTo(paced);
    return super.now;
  }
}
