/**
 * The served exchange's control plane (issue 15 item 3): exsim's own namespace `/exsim/v1/...`,
 * not Binance's, protected by the admin key given on the command line (`--admin-key`), and the
 * same operations in process (`ServeHandle.control`).
 *
 *   GET  /exsim/v1/clock                     the clock: mode, speed, paused, server time
 *   POST /exsim/v1/clock/advance?by=MS|to=MS move simulated time (manual clock, or paused)
 *   POST /exsim/v1/clock/pause               stand still (resume continues at the same speed)
 *   POST /exsim/v1/clock/resume
 *   POST /exsim/v1/clock/speed?mode=M        realtime | speed:N | manual, from now on
 *   GET  /exsim/v1/status                    the clock, the market (symbols, replay position), connections
 *   POST /exsim/v1/accounts                  body: {"accounts": [...]} as in the --accounts file
 *
 * The admin key travels in the `X-EXSIM-ADMIN-KEY` header and is compared by digest with
 * timingSafeEqual. Without `--admin-key` every control request is refused. Answers are JSON;
 * refusals come from the one error table (-1002 for a missing or wrong key or no --admin-key,
 * -1102/-1130 for parameters, -1000 CLOCK_RUNNING for a hand move of a running clock). An IP
 * with 10 failed authentications in a minute of wall time is refused with 429 -1003 and
 * Retry-After until the minute ends (auth-failures.ts: why wall time).
 *
 * With --journal, what a control request changed is journaled before its answer leaves: the
 * accounts (engine commands) and their keys (facade state), the clock's new position, and the
 * pacing (pause, resume, speed) as the host note `pacing` (HostNotes, on the facade lines). A
 * restart resumes from where the journal ends, paced as the journal last says (`restorePacing`),
 * or at the --clock of its command line if the control plane never changed the pacing.
 *
 * These routes are outside the Binance endpoint table on purpose: they steer the simulation
 * (the pacing, the replay), which the exchange facade does not own.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { apiError, nestingBeyond, type ApiError, type ExchangeContext } from '../../api-facade/index.ts';
import { formatPacingMode, type Pacing, type WallClock } from '../../clock/index.ts';
import type { CreateAccount, EngineConfig } from '../../engine/index.ts';
import { InputError } from '../../backtest/index.ts';
import { servedAccountsFrom } from '../accounts-file.ts';
import type { HostNotes } from '../durability/host-notes.ts';
import { systemWallClock } from '../wall-clock.ts';
import { AuthFailures, type AuthFailureLimits } from './auth-failures.ts';

export interface ClockView {
  /** `manual`, `realtime` or `speed:N` (the mode that runs; `paused` says if it is held). */
  readonly mode: string;
  readonly paused: boolean;
  /** Simulated seconds per real second now (0 when manual or paused). */
  readonly speed: number;
  /** Simulated now, ms and µs. */
  readonly serverTime: number;
  readonly serverTimeUs: number;
}

export interface ServeControlOptions {
  readonly pacing: Pacing;
  readonly ctx: ExchangeContext;
  /** Where the pacing is noted for the journal (the host's notes, journaled with the facade's state). */
  readonly notes: HostNotes;
  readonly config: EngineConfig;
  /** Brings the backend to simulated `time` (the replay reads its tape up to there). */
  readonly catchUp: (time: number) => Promise<void>;
  /** Applies an account creation at simulated now. */
  readonly createAccount: (command: CreateAccount) => void;
  readonly adminKey?: string;
  /** Extra facts for the status answer (the replay's tape, open connections). */
  readonly status?: () => Record<string, unknown>;
  /**
   * The journal's commit point for what a control request changed (the clock's position, new
   * accounts and keys): runs before its answer, which waits for a promise.
   */
  readonly commit?: () => Promise<void> | undefined;
  /** Wall time for the failed-authentication windows (default: the system's, wall-clock.ts). */
  readonly wallClock?: WallClock;
  /** Failed authentications per IP per window (default DEFAULT_AUTH_FAILURE_LIMITS: 10 a minute). */
  readonly authFailures?: Partial<AuthFailureLimits>;
}

export interface ControlRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The client's IP (failed authentications are counted per IP). */
  readonly ip: string;
}

export interface ControlResponse {
  readonly status: number;
  readonly body: unknown;
  /** Extra response headers (Retry-After on a 429). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The host note (HostNotes) the pacing is journaled under. */
const PACING_NOTE = 'pacing';

interface PacingNote {
  /** The mode that runs (`manual` while paused). */
  readonly mode: string;
  /** The mode a pause holds; null when not paused. */
  readonly pausedFrom: string | null;
}

export class ServeControl {
  readonly #o: ServeControlOptions;
  readonly #adminDigest: Buffer | null;
  readonly #authFailures: AuthFailures;
  /** The mode a pause holds (resume restores it); null when not paused. */
  #pausedFrom: string | null = null;

  constructor(options: ServeControlOptions) {
    this.#o = options;
    this.#adminDigest = options.adminKey === undefined ? null : digest(options.adminKey);
    this.#authFailures = new AuthFailures(options.wallClock ?? systemWallClock, options.authFailures);
  }

  clock(): ClockView {
    const pacing = this.#o.pacing;
    const now = this.#o.ctx.now();
    return {
      mode: this.#pausedFrom ?? formatPacingMode(pacing.mode),
      paused: this.#pausedFrom !== null,
      speed: pacing.speed,
      serverTime: Math.floor(now / 1000),
      serverTimeUs: now,
    };
  }

  /** Moves simulated time by `byMs` or to `toMs` (not backwards); only on a manual or paused clock. */
  async advance(move: { readonly byMs?: number; readonly toMs?: number }): Promise<ClockView> {
    const pacing = this.#o.pacing;
    if (pacing.speed !== 0) throw apiError('CLOCK_RUNNING');
    const now = this.#o.ctx.now();
    const target = move.toMs !== undefined ? Math.round(move.toMs * 1000) : now + Math.round((move.byMs ?? 0) * 1000);
    if (!Number.isSafeInteger(target) || target < now) throw apiError('INVALID_PARAMETER_DATA', move.toMs !== undefined ? 'to' : 'by');
    pacing.reanchor(target);
    await this.#o.catchUp(target);
    await this.#o.commit?.();
    return this.clock();
  }

  /** Holds the clock where it is (the backend first catches up with it, so time reads still). */
  async pause(): Promise<ClockView> {
    if (this.#pausedFrom === null && this.#o.pacing.mode.kind !== 'manual') {
      this.#pausedFrom = formatPacingMode(this.#o.pacing.mode);
      this.#o.pacing.retime('manual');
    }
    await this.#o.catchUp(this.#o.pacing.simulatedNow());
    await this.#commitPacing();
    return this.clock();
  }

  async resume(): Promise<ClockView> {
    if (this.#pausedFrom !== null) {
      this.#o.pacing.retime(this.#pausedFrom);
      this.#pausedFrom = null;
    }
    await this.#commitPacing();
    return this.clock();
  }

  async setSpeed(mode: string): Promise<ClockView> {
    try {
      this.#o.pacing.retime(mode);
    } catch {
      throw apiError('INVALID_PARAMETER_DATA', 'mode');
    }
    this.#pausedFrom = null;
    await this.#commitPacing();
    return this.clock();
  }

  /**
   * After a restore: paces the clock as the journal's last pacing note says (a pause holds,
   * with the mode it will resume at), from `resumeAt`, the simulated time the restored clock
   * resumes at (the start-up's own wall time is not simulated time that passed). Returns the
   * mode now shown, or null when the journal has no note (the command line's --clock stands).
   */
  restorePacing(resumeAt: number): string | null {
    const note = this.#o.notes.get(PACING_NOTE);
    if (note === undefined) return null;
    const { mode, pausedFrom } = JSON.parse(note) as PacingNote;
    this.#o.pacing.retime(mode);
    this.#o.pacing.reanchor(resumeAt);
    this.#pausedFrom = pausedFrom;
    return pausedFrom === null ? mode : `paused (${pausedFrom} on resume)`;
  }

  /** Notes the pacing for the journal and commits it with the rest of the request's changes. */
  async #commitPacing(): Promise<void> {
    const note: PacingNote = { mode: formatPacingMode(this.#o.pacing.mode), pausedFrom: this.#pausedFrom };
    this.#o.notes.set(PACING_NOTE, JSON.stringify(note));
    await this.#o.commit?.();
  }

  status(): Record<string, unknown> {
    const engine = this.#o.ctx.backend.engine;
    return { clock: this.clock(), symbols: engine.symbolNames(), ...(this.#o.status?.() ?? {}) };
  }

  /** Creates accounts (and registers their keys) from an accounts document, at simulated now. */
  async createAccounts(document: unknown): Promise<{ accounts: number[] }> {
    let served;
    try {
      served = servedAccountsFrom((document ?? {}) as { accounts?: unknown }, 'POST /exsim/v1/accounts', this.#o.config, this.#o.ctx.now());
    } catch (error) {
      throw apiError('CONTROL_REFUSED', error instanceof InputError ? error.message : 'not an accounts document');
    }
    const engine = this.#o.ctx.backend.engine;
    for (const command of served.commands) {
      if (engine.account(command.accountId) !== undefined) throw apiError('CONTROL_REFUSED', `account ${command.accountId} exists`);
    }
    for (const key of served.apiKeys) {
      if (this.#o.ctx.apiKeys.get(key.apiKey) !== undefined) throw apiError('CONTROL_REFUSED', `API key ${key.apiKey} is registered`);
    }
    for (const command of served.commands) this.#o.createAccount(command);
    for (const key of served.apiKeys) this.#o.ctx.apiKeys.add(key);
    await this.#o.commit?.();
    return { accounts: served.commands.map((c) => c.accountId) };
  }

  /** Serves one HTTP request under /exsim/ (the HTTP server routes them here). */
  async handle(request: ControlRequest): Promise<ControlResponse> {
    // An IP past its failed authentications is refused before its key is looked at.
    const waitSeconds = this.#adminDigest === null ? 0 : this.#authFailures.refusedFor(request.ip);
    if (waitSeconds > 0) {
      const { failures, windowMs } = this.#authFailures.limits;
      return { status: 429, body: apiError('CONTROL_AUTH_FAILURES', failures, windowMs / 1000).toBody(), headers: { 'Retry-After': String(waitSeconds) } };
    }
    try {
      this.#authorize(request.headers['x-exsim-admin-key'], request.ip);
      return { status: 200, body: await this.#route(request) };
    } catch (error) {
      const refusal = (error as ApiError).toBody === undefined ? apiError('UNKNOWN_ERROR') : (error as ApiError);
      return { status: refusal.status, body: refusal.toBody() };
    }
  }

  #authorize(header: string | string[] | undefined, ip: string): void {
    if (this.#adminDigest === null) throw apiError('CONTROL_DISABLED');
    const given = typeof header === 'string' ? header : '';
    if (!timingSafeEqual(digest(given), this.#adminDigest)) {
      this.#authFailures.failed(ip);
      throw apiError('UNAUTHORIZED');
    }
  }

  async #route(r: ControlRequest): Promise<unknown> {
    const route = `${r.method} ${r.path}`;
    switch (route) {
      case 'GET /exsim/v1/clock':
        return this.clock();
      case 'POST /exsim/v1/clock/advance': {
        const by = numberParam(r.query, 'by');
        const to = numberParam(r.query, 'to');
        if ((by === undefined) === (to === undefined)) throw apiError('EITHER_PARAMETER_REQUIRED', 'by', 'to');
        return this.advance(by !== undefined ? { byMs: by } : { toMs: to! });
      }
      case 'POST /exsim/v1/clock/pause':
        return this.pause();
      case 'POST /exsim/v1/clock/resume':
        return this.resume();
      case 'POST /exsim/v1/clock/speed': {
        const mode = r.query.get('mode');
        if (mode === null || mode === '') throw apiError('MANDATORY_PARAMETER', 'mode');
        return this.setSpeed(mode);
      }
      case 'GET /exsim/v1/status':
        return this.status();
      case 'POST /exsim/v1/accounts': {
        // Bounded like every JSON body the server reads (api-facade's json-text-scan.ts).
        if (nestingBeyond(r.body) >= 0) throw apiError('CONTROL_REFUSED', 'the body is nested too deep');
        let document: unknown;
        try {
          document = JSON.parse(r.body);
        } catch {
          throw apiError('CONTROL_REFUSED', 'the body is not JSON');
        }
        return this.createAccounts(document);
      }
      default:
        throw apiError('UNKNOWN_ENDPOINT', r.method, r.path);
    }
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function numberParam(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const n = Number(text);
  if (text === '' || !Number.isFinite(n) || n < 0) throw apiError('INVALID_PARAMETER_DATA', name);
  return n;
}
