/**
 * Faults a real venue shows now and then, injected on purpose so a bot's error handling can be
 * tested. All off by default; when on, every draw comes from one seeded stream, so the same
 * requests meet the same faults on every run.
 *
 * - Matching-engine timeout (spec, General 7): with probability `engineTimeoutProbability`, a
 *   request whose command reached the engine answers 503 -1007 "Timeout waiting for response from
 *   backend server. Send status unknown; execution status unknown." The command HAS run: the
 *   caller must find out from the user data stream or by querying the order, as on the real
 *   exchange. (Binance documents the code, not the HTTP status; 503 is our choice in the 5XX
 *   range the docs give for "execution status unknown".)
 * - Web application firewall (spec, General 8): with `firewall` on, a request whose decoded
 *   query or body holds SQL keywords is refused with 403 before anything else is looked at.
 */
import seedrandom from 'seedrandom';
import { type ApiError, apiError } from '../core/index.ts';

export interface FaultOptions {
  /** 0..1; default 0 (never). */
  readonly engineTimeoutProbability?: number;
  readonly firewall?: boolean;
  /** Seed of the fault stream; default 'exsim-faults'. */
  readonly seed?: string | number;
}

export const engineTimeout = (): ApiError => apiError('ENGINE_TIMEOUT');
export const firewallBlocked = (): ApiError => apiError('FIREWALL_BLOCKED');

// Statement shapes, not single words: "SELL" or "ORDER" alone must pass.
const SQL = /\b(union\s+(all\s+)?select|select\s+[\s\S]+?\s+from|insert\s+into|delete\s+from|drop\s+(table|database)|update\s+\w+\s+set|exec(ute)?\s*\(|or\s+1\s*=\s*1|sleep\s*\(\s*\d+\s*\))|--\s|;\s*(drop|select|delete|update|insert)\b/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export class Faults {
  readonly #timeoutProbability: number;
  readonly #firewall: boolean;
  readonly #random: () => number;
  #draws = 0;

  constructor(options: FaultOptions = {}) {
    const p = options.engineTimeoutProbability ?? 0;
    if (!(p >= 0 && p <= 1)) throw new RangeError(`engineTimeoutProbability must be within 0..1, got ${p}`);
    this.#timeoutProbability = p;
    this.#firewall = options.firewall ?? false;
    this.#random = seedrandom(String(options.seed ?? 'exsim-faults'));
  }

  /** Whether the firewall refuses this request (raw query and body as received). */
  firewallBlocks(rawQuery: string, rawBody: string): boolean {
    return this.#firewall && (SQL.test(decoded(rawQuery)) || SQL.test(decoded(rawBody)));
  }

  /** One draw per request that reached the engine: whether its answer is lost to a timeout. */
  engineTimedOut(): boolean {
    if (this.#timeoutProbability === 0) return false;
    this.#draws++;
    return this.#random() < this.#timeoutProbability;
  }

  /** Draws taken from the fault stream so far (a journal records it; `skip` puts a restored server at the same place). */
  get draws(): number {
    return this.#draws;
  }

  /** Advances the stream to `draws` draws (a journal restore). */
  skipTo(draws: number): void {
    while (this.#draws < draws) {
      this.#random();
      this.#draws++;
    }
  }
}
