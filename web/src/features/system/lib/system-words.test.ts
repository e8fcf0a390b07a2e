import { describe, expect, it } from 'vitest';
import type { SystemWarningKind } from '@everest/core/contract';
import { describeSchedule, formatSize, percentFree, warningIntent } from './system-words';

describe('describeSchedule', () => {
  it.each([
    ['0 2 * * *', 'Every day at 2:00 AM'],
    ['30 14 * * *', 'Every day at 2:30 PM'],
    ['0 0 * * *', 'Every day at 12:00 AM'],
    ['15 3 * * 1-5', 'Every weekday (Monday to Friday) at 3:15 AM'],
    ['0 1 * * 0', 'Every Sunday at 1:00 AM'],
    ['0 1 * * 1,4', 'Every Monday and Thursday at 1:00 AM'],
    ['0 4 1 * *', 'On day 1 of every month at 4:00 AM'],
    ['0 * * * *', 'Every hour, on the hour'],
    ['5 * * * *', 'Every hour at 5 minutes past'],
  ])('says %s in words', (cron, words) => {
    expect(describeSchedule(cron, 'America/Los_Angeles')).toBe(`${words}, America/Los_Angeles time`);
  });

  it('quotes a schedule it has no words for, rather than guess', () => {
    expect(describeSchedule('*/15 2-4 * * *', 'UTC')).toBe('On the schedule “*/15 2-4 * * *”, UTC time');
    expect(describeSchedule('0 0 2 * * *', 'UTC')).toBe('On the schedule “0 0 2 * * *”, UTC time');
  });
});

it("sizes as core's file size under a gigabyte, and in GB or TB above", () => {
  expect(formatSize(12 * 1024)).toBe('12 KB');
  expect(formatSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
  expect(formatSize(200 * 1024 ** 3)).toBe('200.0 GB');
  expect(formatSize(2.5 * 1024 ** 4)).toBe('2.5 TB');
});

it('says the free share in whole percent, never a false 0%', () => {
  expect(percentFree({ path: '/', freeBytes: 200, totalBytes: 500 })).toBe('40%');
  expect(percentFree({ path: '/', freeBytes: 1, totalBytes: 1000 })).toBe('less than 1%');
  expect(percentFree({ path: '/', freeBytes: 0, totalBytes: 0 })).toBe('0%');
});

it('marks the warnings that mean data could be lost now as errors, the others as warnings', () => {
  const errors: SystemWarningKind[] = ['backup-failed', 'backup-overdue', 'backup-never', 'disk-low'];
  const warnings: SystemWarningKind[] = ['backups-off', 'backup-same-disk', 'mail-given-up'];
  expect(errors.map(warningIntent)).toEqual(['error', 'error', 'error', 'error']);
  expect(warnings.map(warningIntent)).toEqual(['warning', 'warning', 'warning']);
});
