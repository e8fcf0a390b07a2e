import net from 'node:net';

/** What the gate does with a new connection. */
export type GateMode = 'pass' | 'refuse' | 'stall';

/**
 * A TCP relay in front of the test's PostgreSQL that a test opens and shuts, to act out a
 * database restart: `pass` relays, `refuse` hangs up at once (as a server that is down),
 * `stall` accepts and never answers (as a server that hangs). `cut` drops every relayed
 * connection, as a restart does.
 */
export class TcpGate {
  mode: GateMode = 'pass';
  /** Connections made to the gate, in any mode. */
  connections = 0;
  /** Connections hung up at once in `refuse` mode. */
  refused = 0;
  private readonly open = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    private readonly target: { host: string; port: number },
  ) {}

  /** A gate on an ephemeral local port in front of the server of `databaseUrl`. */
  static async start(databaseUrl: string): Promise<TcpGate> {
    const target = new URL(databaseUrl);
    const server = net.createServer();
    const gate = new TcpGate(server, { host: target.hostname, port: Number(target.port || 5432) });
    server.on('connection', (socket) => gate.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return gate;
  }

  /** `databaseUrl` with the gate's address instead of the server's. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as net.AddressInfo).port);
    return url.toString();
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
    const upstream = net.connect(this.target.port, this.target.host);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  }
}
