import { SMTPServer } from 'smtp-server';

// A real SMTP server for tests (smtp-server, the library behind nodemailer's own tests): e-mails
// arrive over a TCP socket exactly as they would at Mailpit or a provider.

export interface ReceivedMail {
  /** RCPT TO addresses. */
  to: string[];
  raw: string;
  header: (name: string) => string | undefined;
  /** The decoded text/plain and text/html parts. */
  text: string;
  html: string;
}

/** Undoes quoted-printable or base64, the encodings nodemailer uses for text parts. */
function decodePart(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function splitHeaders(entity: string): { headers: Map<string, string>; body: string } {
  const at = entity.search(/\r?\n\r?\n/);
  const head = at === -1 ? entity : entity.slice(0, at);
  const body = at === -1 ? '' : entity.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The parts of a (possibly nested) multipart message, by content type. */
function partsOf(entity: string, found: Map<string, string>): void {
  const { headers, body } = splitHeaders(entity);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      partsOf(part.replace(/^\r?\n/, ''), found);
    }
    return;
  }
  const mime = type.split(';')[0]?.trim().toLowerCase() ?? 'text/plain';
  if (!found.has(mime)) found.set(mime, decodePart(body, headers.get('content-transfer-encoding') ?? '7bit'));
}

function parse(raw: string, to: string[]): ReceivedMail {
  const { headers } = splitHeaders(raw);
  const parts = new Map<string, string>();
  partsOf(raw, parts);
  return {
    to,
    raw,
    header: (name) => headers.get(name.toLowerCase()),
    text: parts.get('text/plain') ?? '',
    html: parts.get('text/html') ?? '',
  };
}

export class SmtpListener {
  readonly received: ReceivedMail[] = [];
  /** SMTP sessions opened by clients so far. */
  connections = 0;
  private server: SMTPServer | null = null;
  private constructor(private portNumber: number) {}

  /** Listens on 127.0.0.1 (an ephemeral port unless `port` is given). */
  static async start(port = 0): Promise<SmtpListener> {
    const listener = new SmtpListener(port);
    await listener.listen();
    return listener;
  }

  get port(): number {
    return this.portNumber;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.portNumber}`;
  }

  get listening(): boolean {
    return this.server !== null;
  }

  /** Starts listening again on the same port, e.g. after `stop` to simulate an outage. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      authOptional: true,
      // Plain SMTP on loopback: no certificate for nodemailer's opportunistic STARTTLS to reject.
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // The outage tests stop and restart the listener: no waiting for idle connections.
      closeTimeout: 500,
      disableReverseLookup: true,
      onConnect: (_session, callback) => {
        this.connections += 1;
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((address) => address.address);
          this.received.push(parse(Buffer.concat(chunks).toString('utf8'), to));
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.portNumber, '127.0.0.1', () => resolve());
    });
    const address = server.server.address();
    if (address && typeof address === 'object') this.portNumber = address.port;
    this.server = server;
  }

  /** Stops listening: connections are refused until `listen` is called again. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
