/** The user-input error now lives in the data layer (src/data/input-error.ts); this keeps the backtest's imports of it working. */
export { InputError } from '../data/index.ts';
