import type { SystemStatusAnswer, SystemWarningKind } from '@everest/core/contract';
import { formatDateTime, formatFileSize, megabyte } from '@everest/core/domain';

// The System tab's words: administrators read it to know whether investors' documents are safe,
// so sizes, schedules and lanes are said plainly rather than as the server holds them.

/** A warning that data could be lost now is red; one about a setting or a backlog is amber. */
export function warningIntent(kind: SystemWarningKind): 'error' | 'warning' {
  return kind === 'backup-failed' || kind === 'backup-overdue' || kind === 'backup-never' || kind === 'disk-low' ? 'error' : 'warning';
}

const gigabyte = 1024 * megabyte;

/**
 * Core's file size ('12 KB', '1.4 MB') up to a gigabyte, then GB and TB with one decimal: a disk
 * of '488281.2 MB' says nothing at a glance.
 */
export function formatSize(bytes: number): string {
  if (bytes < gigabyte) return formatFileSize(bytes);
  if (bytes < 1024 * gigabyte) return `${(bytes / gigabyte).toFixed(1)} GB`;
  return `${(bytes / (1024 * gigabyte)).toFixed(1)} TB`;
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** A moment as the rest of the portal says it, with its zone named. */
export const formatMoment = (timestamp: string): string => `${formatDateTime(timestamp)} Pacific Time`;

/** The share of the disk that is free, in whole percent; 'less than 1%' rather than a false 0%. */
export function percentFree(disk: SystemStatusAnswer['disk']): string {
  if (disk.totalBytes === 0) return '0%';
  const share = (disk.freeBytes / disk.totalBytes) * 100;
  return share > 0 && share < 1 ? 'less than 1%' : `${Math.round(share)}%`;
}

export const laneLabels: Record<SystemStatusAnswer['outbox']['lanes'][number]['lane'], { title: string; examples: string }> = {
  transactional: { title: 'One-to-one e-mail', examples: 'password reset links, sign-in notices, contact messages' },
  bulk: { title: 'Batch e-mail', examples: 'welcome e-mails of an import, quarterly notices, reminders' },
};

export function keepSentence(keep: SystemStatusAnswer['backups']['keep']): string {
  return `Keeps ${keep.daily} daily, ${keep.weekly} weekly and ${keep.monthly} monthly backups`;
}

const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const whole = (field: string, max: number): number | null => (/^\d{1,2}$/.test(field) && Number(field) <= max ? Number(field) : null);

function clock(hour: number, minute: number): string {
  const suffix = hour < 12 ? 'AM' : 'PM';
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(minute).padStart(2, '0')} ${suffix}`;
}

function listWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** A cron schedule's usual shapes; null for any other. */
function scheduleWords(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minuteField = '', hourField = '', dayField = '', monthField = '', weekdayField = ''] = fields;
  const minute = whole(minuteField, 59);
  if (minute === null || monthField !== '*') return null;
  if (hourField === '*' && dayField === '*' && weekdayField === '*') {
    return minute === 0 ? 'Every hour, on the hour' : `Every hour at ${minute} ${minute === 1 ? 'minute' : 'minutes'} past`;
  }
  const hour = whole(hourField, 23);
  if (hour === null) return null;
  const at = clock(hour, minute);
  if (dayField === '*' && weekdayField === '*') return `Every day at ${at}`;
  if (dayField === '*' && weekdayField === '1-5') return `Every weekday (Monday to Friday) at ${at}`;
  if (dayField === '*' && /^[0-7](,[0-7])*$/.test(weekdayField)) {
    return `Every ${listWords([...new Set(weekdayField.split(',').map((d) => dayNames[Number(d)] ?? ''))])} at ${at}`;
  }
  const day = whole(dayField, 31);
  if (day !== null && day > 0 && weekdayField === '*') return `On day ${day} of every month at ${at}`;
  return null;
}

/** 'Every day at 2:00 AM, America/Los_Angeles time'; an unusual schedule is quoted as written. */
export function describeSchedule(cron: string, timeZone: string): string {
  return `${scheduleWords(cron) ?? `On the schedule “${cron}”`}, ${timeZone} time`;
}
