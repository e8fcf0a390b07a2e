import net from 'node:net';

/**
 * A TCP relay in front of the test server that a test turns off and on, to act out a server
 * that goes down mid-batch and comes back: `refuse` hangs up on new connections, `cut` drops the
 * ones in flight, and `target` may point at another instance over the same database (the
 * restarted server). `dropAnswers` loses the next answers on their way back: the server has
 * done the work, the client sees its connection drop (a lost answer, issue 32).
 */
export class Relay {
  refusing = false;
  /** Connections accepted or refused so far: how often a client tried to reach the server. */
  connections = 0;
  /** How many of the next answers to lose: their connection is cut when the server starts answering. */
  dropAnswers = 0;
  private readonly open = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    public target: string,
  ) {}

  static async start(target: string): Promise<Relay> {
    const server = net.createServer();
    const relay = new Relay(server, target);
    server.on('connection', (socket) => relay.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return relay;
  }

  /** The relay's own base URL, to give the client instead of the server's. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
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
    if (this.refusing) {
      client.destroy();
      return;
    }
    const target = new URL(this.target);
    const upstream = net.connect(Number(target.port), target.hostname);
    this.track(upstream);
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
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
