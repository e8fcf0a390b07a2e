// The headless watched-folder sync, for a file server with no desktop:
//
//   EVEREST_EMAIL=… EVEREST_PASSWORD=… pnpm --filter @everest/desktop sync --server URL --folder DIR [--once] [--poll] [--match-content]
//
// This is the one module of the headless sync that reads process.env and process.argv.

import { createInterface } from 'node:readline/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { portalAddressMessages, serverUrlSchema } from '../shared/settings';
import { emailToldSentence } from '../sync/digest';
import { FolderLocked } from '../sync/folder-lock';
import { createPortal, secondStepNeeded } from '../sync/portal';
import { printable } from '../sync/report';
import { defaultStabilityMs, minimumStabilitySeconds, stabilityMessages } from '../sync/stability';
import { SyncEngine, type SyncEvent } from '../sync/sync-engine';

/**
 * Exit codes: 0 nothing needs a person; 1 something needs attention (a file, a manifest row, a
 * file given up, the portal out of reach); 2 a usage error; 3 the portal refused the sign-in
 * (never retried); 4 another sync holds the folder.
 */
const exitCodes = { ok: 0, attention: 1, usage: 2, signInRefused: 3, folderLocked: 4 } as const;

const usage = `Usage: pnpm --filter @everest/desktop sync --server URL --folder DIR [--once] [--poll] [--match-content]
  --server URL            the portal, e.g. https://portal.example.com
  --folder DIR            the watched folder (a quarter folder, or a folder of quarter folders)
  --once                  scan, publish what is finished, wait for the uploads, exit: 0 when nothing needs
                          attention, 1 when something does, 3 when the sign-in is refused, 4 when
                          another sync holds the folder
  --poll                  poll the folder instead of listening to events (network shares)
  --ledger FILE           where the sync remembers what it published (default ~/.everest-sync/<folder hash>.json)
  --stability-seconds N   how long a file must stand still before it is read (default 10, at least 5;
                          a file written in bursts waits longer: twice the longest pause between its writes)
  --rescan-minutes N      full scans while watching (default 5)
  --email-notification    ask the portal to e-mail investors about what is published (default off)
  --match-content         an investors folder without manifest.csv: read each K-1 PDF (a combined PDF is
                          cut per investor), publish only the unique exact matches, and write the rest
                          as a manifest draft beside the ledger, to complete and drop back as manifest.csv
Signs in with EVEREST_EMAIL and EVEREST_PASSWORD (an administrator). An account with a second
step is asked for its code at a terminal, or takes EVEREST_SECOND_STEP_CODE (used once).`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(exitCodes.usage);
}

/**
 * One line per file and change of state (published, already on the portal, still being
 * written, needs attention, deleted…) and one each when the portal goes away and comes back;
 * not the requests' start.
 */
function logLine(event: SyncEvent): void {
  if (event.state === 'publishing') return;
  const id = event.documentId ? ` [document ${event.documentId}]` : '';
  process.stdout.write(`${new Date().toISOString()} ${event.state.padEnd(19)} ${printable(event.path)}: ${printable(event.message)}${id}\n`);
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
        'match-content': { type: 'boolean', default: false },
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
  // The app's own rule for the portal's address: over plain http the password would cross the network.
  const server = serverUrlSchema.safeParse(args.server);
  if (!server.success) fail(server.error.issues[0]?.message ?? portalAddressMessages.invalid);
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

  const stabilityMs = seconds(args['stability-seconds'], defaultStabilityMs, 1000);
  if (stabilityMs < minimumStabilitySeconds * 1000) fail(stabilityMessages.tooShort);

  // `pnpm --filter` runs the script in desktop/: paths are meant from where the command was typed.
  const base = process.env.INIT_CWD ?? process.cwd();
  const folder = path.resolve(base, args.folder);
  const ledgerFile = args.ledger
    ? path.resolve(base, args.ledger)
    : path.join(os.homedir(), '.everest-sync', `${createHash('sha256').update(folder).digest('hex').slice(0, 16)}.json`);

  let stopped: (reason: string) => void = () => undefined;
  const stoppedOnItsOwn = new Promise<string>((resolve) => (stopped = resolve));
  const engine = await SyncEngine.create({
    folder,
    ledgerFile,
    portal: createPortal({ serverUrl: server.data, email, password, secondStepCode: secondStepCodeSource() }),
    runBy: 'command line',
    stabilityMs,
    rescanMs: seconds(args['rescan-minutes'], 5 * 60_000, 60_000),
    poll: args.poll,
    watch: !args.once,
    emailNotification: args['email-notification'],
    matchContent: args['match-content'],
    // A one-off run gives up on a failing file, or on reaching the portal, after 5 attempts
    // (2 s, 4 s, 8 s, 16 s apart, less jitter), for schedulers.
    maxAttempts: args.once ? 5 : undefined,
    onEvent: (event) => {
      logLine(event);
      if (event.state === 'stopped') stopped(event.message);
    },
  });
  process.stdout.write(
    `Syncing ${folder} to ${args.server} (ledger ${ledgerFile})${args.once ? ', once' : ''}${args.poll ? ', polling' : ''}${args['match-content'] ? ', matching K-1s by content' : ''}\n`,
  );

  try {
    if (args.once) {
      const ok = await engine.runOnce();
      const status = engine.status();
      if (status.stoppedBecause) return stoppedCode(status.stoppedBecause);
      // Every file and manifest row that is not simply published, with its outcome and reason.
      for (const item of status.report) {
        if ((item.outcome === 'published' && !item.warning) || item.outcome === 'skipped') continue;
        process.stdout.write(`  ${item.outcome.padEnd(19)} ${printable(item.path)}${item.row === undefined ? '' : ` (row ${item.row})`}: ${printable(item.message)}\n`);
      }
      if (status.unreachable) process.stdout.write(`The portal could not be reached: ${status.unreachable}\n`);
      if (args['email-notification']) process.stdout.write(`${emailToldSentence(status.emailed)}\n`);
      for (const draft of engine.contentDrafts()) process.stdout.write(`Manifest draft of the files that need a person: ${printable(draft)}\n`);
      process.stdout.write(`Done: ${status.summary}.\n`);
      return ok ? exitCodes.ok : exitCodes.attention;
    }
    await engine.start();
  } catch (error) {
    if (error instanceof FolderLocked) {
      process.stderr.write(`${error.message}\n`);
      return exitCodes.folderLocked;
    }
    throw error;
  }
  const reason = await Promise.race([
    stoppedOnItsOwn,
    new Promise<null>((resolve) => {
      process.once('SIGINT', () => resolve(null));
      process.once('SIGTERM', () => resolve(null));
    }),
  ]);
  await engine.stop();
  return reason === null ? exitCodes.ok : stoppedCode(reason);
}

/** The sync stopped on its own: a refused sign-in (3), or its folder taken over by another (4). */
function stoppedCode(reason: string): number {
  process.stderr.write(`${reason}\n`);
  return reason.startsWith('The portal refused') ? exitCodes.signInRefused : exitCodes.folderLocked;
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
