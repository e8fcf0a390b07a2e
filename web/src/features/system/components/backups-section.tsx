import { Spinner } from '@fluentui/react-components';
import type { BackupSummary, SystemStatusAnswer } from '@everest/core/contract';
import { describeSchedule, formatCount, formatMoment, formatSize, keepSentence } from '../lib/system-words';
import { Fact, Facts, SystemSection, useSystemStyles } from './system-parts';

type Backups = SystemStatusAnswer['backups'];

/** A place backups go, marked when a lost disk would take them with the data. */
function Place({ location, archive, sameDisk }: { location: string; archive?: string; sameDisk: boolean }) {
  const own = useSystemStyles();
  return (
    <>
      <span className={own.code}>{location}</span>
      {sameDisk && <span className={own.caution}> (same disk as the data)</span>}
      {archive !== undefined && (
        <span className={own.note}>
          {'Archive: '}
          <span className={own.code}>{archive}</span>
        </span>
      )}
    </>
  );
}

function filesSentence(backup: BackupSummary): string {
  if (backup.filesCopied === backup.filesTotal) return `All ${formatCount(backup.filesTotal)} copied`;
  const others = backup.filesTotal - backup.filesCopied;
  return `${formatCount(backup.filesCopied)} of ${formatCount(backup.filesTotal)} copied (the other ${formatCount(others)} were already in an earlier backup)`;
}

function LastSuccess({ backup }: { backup: BackupSummary | null }) {
  const own = useSystemStyles();
  if (!backup) {
    return (
      <Fact term="Last good backup">
        <span className={own.bad}>No backup has completed yet.</span>
      </Fact>
    );
  }
  return (
    <>
      <Fact term="Last good backup">{`${formatMoment(backup.finishedAt)}, ${backup.trigger === 'schedule' ? 'on schedule' : 'started by an operator'}`}</Fact>
      <Fact term="Its size" note="Documents an earlier backup already holds are not counted again.">
        {formatSize(backup.sizeBytes)}
      </Fact>
      <Fact term="Files">{filesSentence(backup)}</Fact>
      <Fact term="Stored in">
        <Place location={backup.location} archive={backup.archive} sameDisk={backup.sameDisk} />
      </Fact>
    </>
  );
}

/** An old failure is history once a later backup succeeded; the sentence says which it is. */
function LastFailure({ failure, lastSuccess }: { failure: NonNullable<Backups['lastFailure']>; lastSuccess: BackupSummary | null }) {
  const own = useSystemStyles();
  const since = lastSuccess !== null && Date.parse(lastSuccess.finishedAt) > Date.parse(failure.at);
  return (
    <Fact term="Last failed backup" note={since ? 'A later backup succeeded.' : undefined}>
      <span className={since ? undefined : own.bad}>{formatMoment(failure.at)}</span>
      {`: ${failure.message}`}
    </Fact>
  );
}

/** The Backups section: the last good one, the next, the schedule and what is kept. */
export function BackupsSection({ backups, className }: { backups: Backups; className?: string }) {
  const own = useSystemStyles();
  return (
    <SystemSection id="system-backups-title" title="Backups" className={className}>
      {backups.runningSince && (
        <Spinner className={own.startAligned} size="tiny" labelPosition="after" label={`A backup has been running since ${formatMoment(backups.runningSince)}.`} />
      )}
      <Facts>
        <LastSuccess backup={backups.lastSuccess} />
        {backups.lastFailure && <LastFailure failure={backups.lastFailure} lastSuccess={backups.lastSuccess} />}
        <Fact term="Next backup">
          {backups.schedule === null ? (
            <span className={own.caution}>Scheduled backups are off</span>
          ) : (
            (backups.next && formatMoment(backups.next)) || 'Not yet known'
          )}
        </Fact>
        {backups.schedule !== null && (
          <>
            <Fact term="Schedule">{describeSchedule(backups.schedule, backups.timeZone)}</Fact>
            <Fact term="Backups go to">
              <Place location={backups.location} sameDisk={backups.sameDisk} />
            </Fact>
          </>
        )}
        <Fact term="Old backups">{keepSentence(backups.keep)}</Fact>
      </Facts>
    </SystemSection>
  );
}
