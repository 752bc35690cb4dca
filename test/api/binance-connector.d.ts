/**
 * The part of @binance/connector (plain JS, no bundled types) that the real-client test calls.
 * Bodies are `any` on purpose: the test asserts their shape.
 */
declare module '@binance/connector' {
  interface ConnectorResponse {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly data: any;
  }
  type Options = Record<string, string | number | boolean>;
  export class Spot {
    constructor(apiKey?: string, apiSecret?: string, options?: { baseURL?: string; logger?: unknown; timeout?: number; privateKey?: string; privateKeyAlgo?: string });
    time(): Promise<ConnectorResponse>;
    exchangeInfo(options?: Options): Promise<ConnectorResponse>;
    depth(symbol: string, options?: Options): Promise<ConnectorResponse>;
    trades(symbol: string, options?: Options): Promise<ConnectorResponse>;
    klines(symbol: string, interval: string, options?: Options): Promise<ConnectorResponse>;
    account(options?: Options): Promise<ConnectorResponse>;
    newOrder(symbol: string, side: string, type: string, options?: Options): Promise<ConnectorResponse>;
    getOrder(symbol: string, options?: Options): Promise<ConnectorResponse>;
    cancelOrder(symbol: string, options?: Options): Promise<ConnectorResponse>;
    newOCOOrder(symbol: string, side: string, quantity: number | string, aboveType: string, belowType: string, options?: Options): Promise<ConnectorResponse>;
    getOCOOrder(options?: Options): Promise<ConnectorResponse>;
    cancelOCOOrder(symbol: string, options?: Options): Promise<ConnectorResponse>;
    cancelAndReplace(symbol: string, side: string, type: string, cancelReplaceMode: string, options?: Options): Promise<ConnectorResponse>;
    createListenKey(): Promise<ConnectorResponse>;
    closeListenKey(listenKey: string): Promise<ConnectorResponse>;
  }
  export class WebsocketStream {
    constructor(options?: { wsURL?: string; logger?: unknown; callbacks?: { open?: () => void; message?: (data: string) => void; close?: () => void } });
    subscribe(stream: string | string[]): void;
    disconnect(): void;
  }
  type Callbacks = { open?: (client: unknown) => void; message?: (data: string) => void; close?: () => void; error?: () => void };
  /** The WebSocket API client: answers arrive through `callbacks.message` as raw JSON text. */
  export class WebsocketAPI {
    constructor(apiKey?: string, apiSecret?: string, options?: { wsURL?: string; logger?: unknown; callbacks?: Callbacks; timeUnit?: string });
    ping(options?: Options): void;
    depth(symbol: string, options?: Options): void;
    newOrder(symbol: string, side: string, type: string, options?: Options): void;
    openOrders(symbol?: string, options?: Options): void;
    cancelOrder(symbol: string, options?: Options): void;
    account(options?: Options): void;
    startUserDataStream(): void;
    disconnect(): void;
  }
}
