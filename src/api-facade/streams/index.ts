/**
 * What the streams say, transport-agnostic: Binance's market streams (`stream-name.ts` parses
 * the names, `stream-payloads.ts` builds each message (USDⓈ-M: `futures-stream-name.ts`,
 * `futures-stream-payloads.ts`), `market-feed.ts` delivers what is due when
 * its owner advances it, `feed-driver.ts` pumps it and keeps a timer at the backend's scheduler),
 * the stream host's control messages (`stream-control.ts`), and the user data stream
 * (`user-stream-events.ts`: engine events to executionReport, balanceUpdate,
 * outboundAccountPosition; `futures-user-stream-events.ts`: the USDⓈ-M stream's ORDER_TRADE_UPDATE,
 * TRADE_LITE, ACCOUNT_UPDATE, MARGIN_CALL, ACCOUNT_CONFIG_UPDATE; `user-stream-hub.ts` delivers
 * either; `listen-keys.ts`). The sockets
 * that carry them are transport/'s.
 *
 * Rules: imports core/, params/ (the JSON text scan) and serialize/ only. Pure: simulated time only.
 */
export { MarketFeed, type StreamSink, type StreamVenue } from './market-feed.ts';
export { isFuturesOnlyName } from './futures-stream-name.ts';
export { FeedDriver, type FeedClock, type ScheduleAt } from './feed-driver.ts';
export { errorFrame, isWellFormedStreamName, MAX_STREAM_NAME_LENGTH, NO_REQUEST_ID, parseStreamControl, resultFrame, type StreamControl } from './stream-control.ts';
export { UserStreamHub } from './user-stream-hub.ts';
export { futuresUserStreamEvents } from './futures-user-stream-events.ts';
export { isFuturesName } from './futures-names.ts';
export { LISTEN_KEY_LIFETIME_US, ListenKeyStore, type KeyEnd } from './listen-keys.ts';
