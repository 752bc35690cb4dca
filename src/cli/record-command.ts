/**
 * `exsim record --symbols BTCUSDT,ETHUSDT --out DIR [--stream-url URL] [--rest-url URL]`: the
 * arguments checked (mistakes are one-line InputErrors), the recorder (src/record) started, one
 * line printed per thing that happened, and SIGINT / SIGTERM turned into a clean stop (every
 * gzip file ended) before the process exits.
 */
import { BINANCE_REST_URL, BINANCE_STREAM_URL, MarketRecorder, type RecorderEvent } from '../record/index.ts';
import { InputError } from '../data/index.ts';

export interface RecordCommandOptions {
  readonly symbols: string;
  readonly out: string;
  readonly streamUrl: string;
  readonly restUrl: string;
}

export const RECORD_DEFAULTS = { streamUrl: BINANCE_STREAM_URL, restUrl: BINANCE_REST_URL };

/** Records until SIGINT or SIGTERM (or until the files cannot be written: then throws). */
export async function recordCommand(options: RecordCommandOptions, print: (line: string) => void = console.log): Promise<void> {
  const symbols = options.symbols
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (symbols.length === 0) throw new InputError('--symbols needs at least one symbol, e.g. BTCUSDT,ETHUSDT');
  checkUrl('--stream-url', options.streamUrl, ['ws:', 'wss:']);
  checkUrl('--rest-url', options.restUrl, ['http:', 'https:']);
  let failed: string | null = null;
  let recorder: MarketRecorder;
  try {
    recorder = new MarketRecorder({
      symbols,
      out: options.out,
      streamUrl: options.streamUrl,
      restUrl: options.restUrl,
      onEvent: (event) => {
        if (event.type === 'error' && event.what === 'write') failed = event.reason;
        print(describe(event));
      },
    });
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  const stop = (signal: string) => () => void recorder.stop(`${signal} received`);
  const onInt = stop('SIGINT');
  const onTerm = stop('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  print(`recording ${symbols.map((s) => s.toUpperCase()).join(', ')} from ${options.streamUrl} and ${options.restUrl} into ${options.out} (Ctrl-C stops cleanly)`);
  recorder.start();
  await recorder.finished;
  process.off('SIGINT', onInt);
  process.off('SIGTERM', onTerm);
  if (failed !== null) throw new Error(`recording stopped: ${failed}`);
}

function checkUrl(option: string, text: string, protocols: readonly string[]): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(`${option} must be a URL such as ${protocols[protocols.length - 1]}//host:port, got "${text}"`);
  }
  if (!protocols.includes(url.protocol)) throw new InputError(`${option} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${text}"`);
}

function describe(event: RecorderEvent): string {
  switch (event.type) {
    case 'file':
      return `${event.symbol}: writing ${event.path}`;
    case 'connected':
      return event.handover ? 'connected afresh (handover before the 24 h limit)' : `connected (attempt ${event.attempt})`;
    case 'disconnected':
      return `disconnected: ${event.reason}; reconnecting in ${(event.retryInMs / 1000).toFixed(1)} s`;
    case 'connect-failed':
      return `cannot connect (attempt ${event.attempt}): ${event.reason}; again in ${(event.retryInMs / 1000).toFixed(1)} s`;
    case 'snapshot':
      return `${event.symbol}: depth snapshot, lastUpdateId ${event.lastUpdateId}`;
    case 'gap':
      return `${event.symbol}: ${event.reason}; taking a snapshot`;
    case 'error':
      return `${event.what} failed: ${event.reason}`;
    case 'stopped':
      return `stopped (${event.reason}); files closed`;
  }
}
