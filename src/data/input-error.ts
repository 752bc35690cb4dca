/**
 * A mistake the user made (a missing file, a bad date, an unknown symbol or strategy): the
 * command line prints its message as one line and exits non-zero, with no stack trace. The one
 * class for user input: it lives here, under everything that reads input, and the backtest layer
 * re-exports it.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
}
