// The headless watched-folder sync, for a file server with no desktop:
//
//   EVEREST_EMAIL=… EVEREST_PASSWORD=… pnpm --filter @everest/desktop sync --server URL --folder DIR [--once] [--poll]
//
// This is the one module of the headless sync that reads process.env and process.argv.

import { createInterface } from 'node:readline/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPortal, secondStepNeeded } from '../sync/portal';
import { SyncEngine, type SyncEvent } from '../sync/sync-engine';

const usage = `Usage: pnpm --filter @everest/desktop sync --server URL --folder DIR [--once] [--poll]
  --server URL            the portal, e.g. https://portal.example.com
  --folder DIR            the watched folder (a quarter folder, or a folder of quarter folders)
  --once                  scan, publish what is settled, wait for the uploads, exit (0 when nothing failed)
  --poll                  poll the folder instead of listening to events (network shares)
  --ledger FILE           where the sync remembers what it published (default ~/.everest-sync/<folder hash>.json)
  --stability-seconds N   how long a file must stand still before it is read (default 3)
  --rescan-minutes N      full scans while watching (default 5)
  --email-notification    ask the portal to e-mail investors about what is published (default off)
Signs in with EVEREST_EMAIL and EVEREST_PASSWORD (an administrator). An account with a second
step is asked for its code at a terminal, or takes EVEREST_SECOND_STEP_CODE (used once).`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

/** One line per file outcome (published, failed, needs attention, deleted); not the requests' start. */
function logLine(event: SyncEvent): void {
  if (event.state === 'publishing') return;
  const id = event.documentId ? ` [document ${event.documentId}]` : '';
  process.stdout.write(`${new Date().toISOString()} ${event.state.padEnd(15)} ${event.path}: ${event.message}${id}\n`);
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        server: { type: 'string' },
        folder: { type: 'string' },
        once: { type: 'boolean', default: false },
        poll: { type: 'boolean', default: false },
        ledger: { type: 'string' },
        'stability-seconds': { type: 'string' },
        'rescan-minutes': { type: 'string' },
        'email-notification': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      // pnpm passes a lone '--' through when the caller wrote one.
      args: process.argv.slice(2).filter((arg) => arg !== '--'),
      strict: true,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  if (args.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (!args.server) fail('--server is required.');
  if (!args.folder) fail('--folder is required.');
  const email = process.env.EVEREST_EMAIL;
  const password = process.env.EVEREST_PASSWORD;
  if (!email || !password) fail('Set EVEREST_EMAIL and EVEREST_PASSWORD to an administrator of the portal.');
  const seconds = (text: string | undefined, fallback: number, unit: number) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) fail(`Not a number of ${unit === 1000 ? 'seconds' : 'minutes'}: ${text}`);
    return Math.round(value * unit);
  };

  // `pnpm --filter` runs the script in desktop/: paths are meant from where the command was typed.
  const base = process.env.INIT_CWD ?? process.cwd();
  const folder = path.resolve(base, args.folder);
  const ledgerFile = args.ledger
    ? path.resolve(base, args.ledger)
    : path.join(os.homedir(), '.everest-sync', `${createHash('sha256').update(folder).digest('hex').slice(0, 16)}.json`);

  const engine = await SyncEngine.create({
    folder,
    ledgerFile,
    portal: createPortal({ serverUrl: args.server, email, password, secondStepCode: secondStepCodeSource() }),
    stabilityMs: seconds(args['stability-seconds'], 3_000, 1000),
    rescanMs: seconds(args['rescan-minutes'], 5 * 60_000, 60_000),
    poll: args.poll,
    watch: !args.once,
    emailNotification: args['email-notification'],
    // A one-off run gives up on a failing file after a few attempts, for schedulers.
    maxAttempts: args.once ? 5 : undefined,
    backoff: args.once ? { baseMs: 1_000, maxMs: 15_000 } : undefined,
    onEvent: logLine,
  });
  process.stdout.write(`Syncing ${folder} to ${args.server} (ledger ${ledgerFile})${args.once ? ', once' : ''}${args.poll ? ', polling' : ''}\n`);

  if (args.once) {
    const ok = await engine.runOnce();
    const status = engine.status();
    process.stdout.write(
      `Done: ${status.published.length} published, ${status.failed.length} failed, ${status.needsAttention.length} need attention.\n`,
    );
    if (status.unreachable) process.stdout.write(`The portal could not be reached: ${status.unreachable}\n`);
    for (const entry of [...status.failed, ...status.needsAttention]) {
      process.stdout.write(`  ${entry.state.padEnd(15)} ${entry.path}: ${entry.lastError ?? ''}\n`);
    }
    return ok ? 0 : 1;
  }

  await engine.start();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await engine.stop();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

/**
 * Where the code of an account with a second step comes from: EVEREST_SECOND_STEP_CODE, once (a
 * TOTP code works once, and a backup code too), or else a prompt when a person is at a terminal.
 * Unattended, a later sign-in (a session that expired) has no code and stops with a sentence.
 */
function secondStepCodeSource(): (() => Promise<string>) | undefined {
  let fromEnv = process.env.EVEREST_SECOND_STEP_CODE;
  const atTerminal = process.stdin.isTTY && process.stdout.isTTY;
  if (!fromEnv && !atTerminal) return undefined;
  return async () => {
    if (fromEnv) {
      const code = fromEnv;
      fromEnv = undefined;
      return code;
    }
    if (!atTerminal) throw new Error(secondStepNeeded);
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await prompt.question('Two-step sign-in: code from your authenticator app, or a backup code: ');
    } finally {
      prompt.close();
    }
  };
}
