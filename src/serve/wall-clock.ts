/**
 * The served exchange's wall clock: the one source of real time behind the pacing (src/clock's
 * `Pacing` maps real time to simulated time through an injected `WallClock`, so it stays
 * deterministic under test), the client clock rule, the control plane's window of failed
 * authentications (control/auth-failures.ts) and a new server's start.
 *
 * Epoch-based like `Date.now` (so it can be compared with clients' request timestamps) but
 * monotonic and sub-millisecond: the fixed time origin plus the monotonic high-resolution timer
 * (a system clock step cannot make it jump).
 */
import type { WallClock } from '../clock/index.ts';

export const systemWallClock: WallClock = () => performance.timeOrigin + performance.now(); // determinism-ok: the served exchange's wall clock (pacing)
