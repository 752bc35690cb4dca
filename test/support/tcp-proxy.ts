/**
 * A TCP proxy in front of a local server, for tests that need the network to fail: `cut()` drops
 * every connection through it at once (no close frame, no FIN handshake the peers agreed on, as a
 * dropped route looks) and refuses new ones until `restore()`.
 */
import net from 'node:net';

export class TcpProxy {
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();
  #down = false;

  private constructor(server: net.Server) {
    this.#server = server;
  }

  static async start(targetPort: number, host = '127.0.0.1'): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (client) => proxy.#connect(client, targetPort, host));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return proxy;
  }

  get port(): number {
    return (this.#server.address() as net.AddressInfo).port;
  }

  /** Resets every open connection and refuses new ones. */
  cut(): void {
    this.#down = true;
    for (const socket of this.#sockets) socket.resetAndDestroy();
    this.#sockets.clear();
  }

  restore(): void {
    this.#down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #connect(client: net.Socket, port: number, host: string): void {
    if (this.#down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(port, host);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        this.#sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  }
}
