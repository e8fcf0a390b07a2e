import { ProgressBar } from '@fluentui/react-components';
import type { SystemStatusAnswer } from '@everest/core/contract';
import { formatSize, percentFree } from '../lib/system-words';
import { Fact, Facts, SystemSection, useSystemStyles } from './system-parts';

/** Disk: the data's folder and how much room is left; the bar is red when the server warns. */
export function DiskSection({ disk, low, className }: { disk: SystemStatusAnswer['disk']; low: boolean; className?: string }) {
  const own = useSystemStyles();
  const used = disk.totalBytes === 0 ? 0 : (disk.totalBytes - disk.freeBytes) / disk.totalBytes;
  return (
    <SystemSection id="system-disk-title" title="Disk" className={className}>
      <Facts>
        <Fact term="Data folder">
          <span className={own.code}>{disk.path}</span>
        </Fact>
        <Fact term="Free space">
          <span className={low ? own.bad : undefined}>{`${formatSize(disk.freeBytes)} free of ${formatSize(disk.totalBytes)} (${percentFree(disk)})`}</span>
        </Fact>
      </Facts>
      <ProgressBar value={used} max={1} thickness="large" color={low ? 'error' : 'brand'} aria-label="Disk space used" />
    </SystemSection>
  );
}

/** Database: its size, where it runs, and the version and last update a backup restores to. */
export function DatabaseSection({ status, className }: { status: SystemStatusAnswer; className?: string }) {
  const own = useSystemStyles();
  return (
    <SystemSection id="system-database-title" title="Database" className={className}>
      <Facts>
        <Fact term="Size">{formatSize(status.database.sizeBytes)}</Fact>
        <Fact term="Runs">{status.database.embedded ? 'Inside this server (embedded)' : 'On a separate database server (external)'}</Fact>
        <Fact term="Portal version">{status.version}</Fact>
        <Fact term="Last database update" note="A backup restores the data as of this update.">
          <span className={own.code}>{status.migration}</span>
        </Fact>
      </Facts>
    </SystemSection>
  );
}
