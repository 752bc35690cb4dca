/**
 * The benchmark rows `--only` accepts, in the order a full run measures them: the one list that
 * bench/run.ts validates and prints in its usage, and `exsim bench --help` shows. Plain data, so
 * the command line's help loads nothing of the benches (they live outside the package, in bench/).
 */
export const FACADE_BENCHES = ['facade-inprocess', 'facade-http'] as const;
export const SERVE_BENCHES = ['serve-idle-streams', 'serve-journal', 'serve-journal-restart', 'serve-slow-readers'] as const;
export const WS_API_BENCHES = ['ws-api'] as const;

export const BENCH_ROWS = ['backtest', 'l2', 'live-market', 'matching-core', 'conditional-mix', 'replay', 'facade', ...FACADE_BENCHES, 'sweep', 'sweep-queue', 'serve', ...SERVE_BENCHES, 'streams', ...WS_API_BENCHES, 'month'] as const;
