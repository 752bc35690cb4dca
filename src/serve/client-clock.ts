/**
 * How the live server reads a client's `timestamp` at any clock speed (issue 15 item 2).
 *
 * Clients stamp requests in one of three ways:
 * - (a) with server time they read (a bot that copies `serverTime`): a simulated time;
 * - (b) with their host's wall clock (most libraries by default);
 * - (c) with their wall clock plus an offset learnt once from GET /api/v3/time (ccxt
 *   `adjustForTimeDifference`, @binance/spot's time sync, python-binance's offset). The offset
 *   is fixed, while at `speed:N` simulated time runs N times faster than the wall clock, so
 *   such a stamp drifts away from simulated now by (N - 1) x the wall time since the sync.
 *
 * The rule: a stamp is read each of these ways, and the reading nearest to now is judged.
 * - (a) is judged in simulated time: lag = simulated now - stamp.
 * - (b) is judged in wall time: lag = wall now - stamp.
 * - (c) for each offset this client's IP was handed (the last 32 serverTime answers it received
 *   or signed with, each remembered as serverTime - wall clock at the answer): lag = wall now -
 *   (stamp - offset). An offset in use stays: a bot that polls the time after its sync does not
 *   push out the offset it signs with.
 *   The client's host clock skew cancels out (it learnt the offset against its own clock).
 * The recvWindow and the 1 s "ahead" rule then apply to that lag, so for wall-clock clients
 * (b, c) they keep their meaning in wall time whatever the speed: a request signed 600 ms ago is
 * 600 ms old, not 6 s at speed:10. A stale or replayed request is old under every reading and
 * is refused; a stamp from the future is ahead under every reading.
 *
 * In `manual` mode (b) and (c) still apply: a bot signing with its wall clock can use a manual
 * server (only simulated time stands still).
 *
 * This is the wall-clock side of the server (the pacing adapter): the facade core sees only a
 * `ClientTimeRule` returning simulated µs.
 */
import type { ClientTimeRule } from '../api-facade/index.ts';
import type { Pacing } from '../clock/index.ts';

/** Offsets remembered per IP (the least recently handed out or used go first). */
const OFFSETS_PER_IP = 32;
/** A reading this close to now counts as a use of its offset (µs). */
const FRESH_US = 60_000_000;
/** IPs remembered at most (the least recently synced are forgotten first). */
const MAX_IPS = 10_000;

export class ClientClock {
  readonly #pacing: Pacing;
  /** Per IP, ms offsets (serverTime - wall clock) it was handed, newest last. */
  readonly #offsets = new Map<string, number[]>();

  constructor(pacing: Pacing) {
    this.#pacing = pacing;
  }

  /** A client at `ip` was told server time `simulatedUs` (ExchangeContext `onServerTime`). */
  readonly noteServerTime = (simulatedUs: number, ip: string): void => {
    const offset = simulatedUs / 1000 - this.#pacing.realNow();
    let list = this.#offsets.get(ip);
    if (list === undefined) {
      if (this.#offsets.size >= MAX_IPS) this.#offsets.delete(this.#offsets.keys().next().value!);
      list = [];
    } else {
      this.#offsets.delete(ip); // re-inserted below: most recently synced last
    }
    // At realtime every sync hands out the same offset (to rounding): keep one.
    if (!list.some((o) => Math.abs(o - offset) < 1)) {
      list.push(offset);
      if (list.length > OFFSETS_PER_IP) list.shift();
    }
    this.#offsets.set(ip, list);
  };

  /** The rule above, as the facade's `clientTime`. */
  readonly rule: ClientTimeRule = (timestamp, simulatedNowUs, ip) => {
    const stampMs = timestamp.us / 1000;
    const wallNow = this.#pacing.realNow();
    // Lags in µs; the smallest in size wins.
    let best = simulatedNowUs - timestamp.us;
    const consider = (lagUs: number): void => {
      if (Math.abs(lagUs) < Math.abs(best)) best = lagUs;
    };
    consider(Math.round((wallNow - stampMs) * 1000));
    const offsets = this.#offsets.get(ip);
    let used = -1;
    if (offsets !== undefined) {
      for (let i = 0; i < offsets.length; i++) {
        const lag = Math.round((wallNow - (stampMs - offsets[i]!)) * 1000);
        if (Math.abs(lag) < Math.abs(best)) {
          best = lag;
          used = i;
        }
      }
      // An offset a client signs with stays remembered however often it polls the time since
      // (each poll hands out a new offset at speed:N; the oldest unused ones go first).
      if (used >= 0 && used < offsets.length - 1 && Math.abs(best) <= FRESH_US) offsets.push(offsets.splice(used, 1)[0]!);
    }
    return simulatedNowUs - best;
  };
}

/** The rule above without remembered offsets (no `noteServerTime`): wall-clock and server-time stamps. */
export function pacedClientTime(pacing: Pacing): ClientTimeRule {
  return new ClientClock(pacing).rule;
}

/**
 * `rule` for a served replay, which may lag the paced clock by a tick of its pacer (at speed:60,
 * 20 ms is 1.2 simulated s): stamps are judged against the paced now, as if the tape had caught
 * up, so a fresh stamp is never "ahead".
 */
export function replayClientTime(rule: ClientTimeRule, pacing: Pacing): ClientTimeRule {
  return (timestamp, simulatedNow, ip) => {
    const lag = Math.max(0, Math.floor(pacing.simulatedNow()) - simulatedNow);
    return rule(timestamp, simulatedNow + lag, ip) - lag;
  };
}
