import net from 'node:net';

/** What the gate does with a new connection. */
export type GateMode = 'pass' | 'refuse' | 'stall';

/**
 * A TCP relay in front of a test's server (its PostgreSQL, or the HTTP server the desktop sync
 * talks to) that a test opens and shuts, to act out a restart: `pass` relays, `refuse` hangs up
 * at once (as a server that is down), `stall` accepts and never answers (as a server that hangs).
 * `cut` drops every relayed connection, as a restart does; `target` may then point at another
 * instance over the same data (the restarted server). `dropAnswers` loses the next answers on
 * their way back: the server has done the work, the client sees its connection drop.
 */
export class TcpGate {
  mode: GateMode = 'pass';
  /** Connections made to the gate, in any mode. */
  connections = 0;
  /** Connections hung up at once in `refuse` mode. */
  refused = 0;
  /** How many of the next answers to lose: their connection is cut when the server starts answering. */
  dropAnswers = 0;
  private readonly open = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    /** The URL of the server relayed to (its host and port are used). */
    public target: string,
  ) {}

  /** A gate on an ephemeral local port in front of the server at `target` (a URL). */
  static async start(target: string): Promise<TcpGate> {
    const server = net.createServer();
    const gate = new TcpGate(server, target);
    server.on('connection', (socket) => gate.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return gate;
  }

  /** `serverUrl` with the gate's address instead of the server's (no trailing '/' for a bare origin). */
  url(serverUrl: string = this.target): string {
    const url = new URL(serverUrl);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as net.AddressInfo).port);
    return url.pathname === '/' && !url.search && !url.hash ? url.toString().replace(/\/$/, '') : url.toString();
  }

  /** Sockets open at the gate: clients' connections (and their relays). */
  get openSockets(): number {
    return this.open.size;
  }

  cut(): void {
    for (const socket of this.open) socket.destroy();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: net.Socket): void {
    this.open.add(socket);
    socket.on('close', () => this.open.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private accept(client: net.Socket): void {
    this.connections += 1;
    this.track(client);
    if (this.mode === 'refuse') {
      this.refused += 1;
      client.destroy();
      return;
    }
    if (this.mode === 'stall') {
      // Read and drop, so that the client's hang-up is seen as a server's kernel sees it.
      client.resume();
      return;
    }
    const target = new URL(this.target);
    const port = Number(target.port) || (target.protocol.startsWith('postgres') ? 5432 : 80);
    const upstream = net.connect(port, target.hostname);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (this.dropAnswers > 0) {
        this.dropAnswers -= 1;
        upstream.destroy();
        client.destroy();
        return;
      }
      client.write(chunk);
    });
  }
}
