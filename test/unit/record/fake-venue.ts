/**
 * A scripted Binance-like venue for the recorder's tests: a combined-stream WebSocket endpoint
 * (/stream?streams=...) whose connections the test sends messages on, one by one, and a REST
 * depth endpoint answering from a queue of snapshots.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export class FakeVenue {
  readonly connections: WebSocket[] = [];
  readonly urls: string[] = [];
  /** Answers of GET /api/v3/depth, in order (the last one repeats). */
  readonly snapshots: object[] = [];
  depthRequests = 0;
  readonly #http: Server;
  readonly #wss: WebSocketServer;

  private constructor(http: Server, wss: WebSocketServer) {
    this.#http = http;
    this.#wss = wss;
  }

  static async start(): Promise<FakeVenue> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    const venue = new FakeVenue(http, wss);
    http.on('request', (req, res) => {
      if (!req.url!.startsWith('/api/v3/depth')) {
        res.writeHead(404).end();
        return;
      }
      venue.depthRequests++;
      const answer = venue.snapshots.length > 1 ? venue.snapshots.shift()! : venue.snapshots[0];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    wss.on('connection', (ws, req) => {
      venue.connections.push(ws);
      venue.urls.push(req.url!);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return venue;
  }

  get base(): string {
    return `127.0.0.1:${(this.#http.address() as AddressInfo).port}`;
  }

  /** Sends `data` on connection `n` (0-based, in connection order) as stream `stream`. */
  send(n: number, stream: string, data: object): void {
    this.connections[n]!.send(JSON.stringify({ stream, data }));
  }

  async close(): Promise<void> {
    for (const ws of this.#wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.#http.close(() => resolve()));
  }
}

export const depthUpdate = (U: number, u: number, bid: string) => ({ e: 'depthUpdate', E: Date.UTC(2024, 0, 1) + u, s: 'BTCUSDT', U, u, b: [[bid, '1.00000000']], a: [] });
