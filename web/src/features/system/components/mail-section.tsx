import type { SystemStatusAnswer } from '@everest/core/contract';
import { formatCount, laneLabels } from '../lib/system-words';
import { Fact, Facts, SystemSection, useSystemStyles } from './system-parts';

/** The command that gives given-up e-mail a fresh set of attempts (server/src/cli.ts). */
export const mailRetryCommand = 'node server/dist/cli.js mail:retry';

/** E-mail: per lane, what waits to be sent and what was given up after its last attempt. */
export function MailSection({ outbox, className }: { outbox: SystemStatusAnswer['outbox']; className?: string }) {
  const own = useSystemStyles();
  const givenUp = outbox.lanes.reduce((sum, lane) => sum + lane.givenUp, 0);
  return (
    <SystemSection id="system-mail-title" title="E-mail" className={className}>
      {outbox.lanes.length === 0 ? (
        <p className={own.paragraph}>No e-mail is waiting.</p>
      ) : (
        <Facts>
          {outbox.lanes.map(({ lane, pending, givenUp: laneGivenUp }) => (
            <Fact key={lane} term={laneLabels[lane].title} note={`Such as ${laneLabels[lane].examples}.`}>
              {`${formatCount(pending)} waiting to be sent, `}
              <span className={laneGivenUp > 0 ? own.bad : undefined}>{`${formatCount(laneGivenUp)} given up`}</span>
            </Fact>
          ))}
        </Facts>
      )}
      {givenUp > 0 && (
        <p className={own.paragraph}>
          {`${givenUp === 1 ? 'One e-mail' : `${formatCount(givenUp)} e-mails`} failed every attempt and will not be sent on ${givenUp === 1 ? 'its' : 'their'} own. Once the cause is fixed (often the mail server's address or password), an operator sends ${givenUp === 1 ? 'it' : 'them'} again by running `}
          <code className={own.code}>{mailRetryCommand}</code>
          {' on the server.'}
        </p>
      )}
    </SystemSection>
  );
}
