import { describe, expect, it } from 'vitest';
import { archiveName, archiveTime } from './backup-place';
import { archivesToKeep } from './prune-backups';

// Nightly backups at 02:00 Pasadena time (10:00 UTC) for a year and a bit.
const nightly = (days: number, from = Date.UTC(2026, 0, 1, 10)) =>
  Array.from({ length: days }, (_, i) => ({ name: archiveName(new Date(from + i * 86_400_000), true), size: 1 }));

describe('which backups BACKUP_KEEP keeps', () => {
  it('names archives by their UTC time, and reads the time back', () => {
    const at = new Date('2026-12-02T10:00:00.123Z');
    expect(archiveName(at, true)).toBe('everest-backup-2026-12-02T100000.123Z.tar.enc');
    expect(archiveName(at, false)).toBe('everest-backup-2026-12-02T100000.123Z.tar');
    expect(archiveTime(archiveName(at, true))).toEqual(at);
    expect(archiveTime('everest-backup-2026-12-02T100000.123Z.tar.enc.partial')).toBeNull();
  });

  it('keeps 7 daily, 4 weekly and 12 monthly of 400 nights: the newest of each', () => {
    const archives = nightly(400);
    const kept = [...archivesToKeep(archives, { daily: 7, weekly: 4, monthly: 12 })].sort();
    const newest = archives.at(-1)?.name ?? '';
    expect(kept).toContain(newest);
    // 7 days, of which the newest few also are the newest of their week and month; 4 weeks; 12 months.
    expect(kept.length).toBeGreaterThanOrEqual(7 + 12 - 2);
    expect(kept.length).toBeLessThanOrEqual(7 + 4 + 12);
    const months = new Set(kept.map((name) => name.slice('everest-backup-'.length, 'everest-backup-2026-01'.length)));
    expect(months.size).toBe(12);
    // The last seven nights are all there.
    for (const archive of archives.slice(-7)) expect(kept).toContain(archive.name);
    expect(kept).not.toContain(archives[0]?.name);
  });

  it('keeps every archive when there are fewer than the counts, and one when told to keep none', () => {
    const archives = nightly(3);
    expect(archivesToKeep(archives, { daily: 7, weekly: 4, monthly: 12 }).size).toBe(3);
    expect([...archivesToKeep(archives, { daily: 0, weekly: 0, monthly: 0 })]).toEqual([archives.at(-1)?.name]);
  });

  it('counts days in the firm’s time zone: two backups of one Pasadena evening are one day', () => {
    // 18:00 and 23:30 Pasadena time on Dec 1 are Dec 2 in UTC for the second one.
    const evening = [new Date('2026-12-02T02:00:00.000Z'), new Date('2026-12-02T07:30:00.000Z')].map((at) => ({ name: archiveName(at, true), size: 1 }));
    const kept = archivesToKeep(evening, { daily: 7, weekly: 0, monthly: 0 });
    expect([...kept]).toEqual([evening[1]?.name]);
  });
});
