// A deadline as a person reads it at a glance: "3d 4h left", "12m 05s left", "overdue 2h 10m".
// Seconds show only in the last hour, where they matter; the text is the same otherwise for a
// whole minute, so most ticks change nothing on screen.

export type Urgency = 'calm' | 'soon' | 'urgent' | 'overdue';

export interface Countdown {
  text: string;
  urgency: Urgency;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * @example
 * countdown(Date.parse('2026-12-01T12:00:00Z'), Date.parse('2026-12-01T11:47:55Z')); // { text: '12m 05s left', urgency: 'urgent' }
 */
export function countdown(deadlineAtMs: number, nowMs: number): Countdown {
  const left = deadlineAtMs - nowMs;
  // Whole seconds, rounded up while counting down (never "0s left" before the end), down after.
  if (left <= 0) return { text: `overdue ${span(Math.floor(-left / 1000))}`, urgency: 'overdue' };
  const seconds = Math.ceil(left / 1000);
  return { text: `${span(seconds)} left`, urgency: left < HOUR ? 'urgent' : left < DAY ? 'soon' : 'calm' };
}

function span(seconds: number): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const ms = seconds * 1000;
  if (ms >= DAY) return `${Math.floor(ms / DAY)}d ${Math.floor((ms % DAY) / HOUR)}h`;
  if (ms >= HOUR) return `${Math.floor(ms / HOUR)}h ${p(Math.floor((ms % HOUR) / MINUTE))}m`;
  return `${Math.floor(seconds / 60)}m ${p(seconds % 60)}s`;
}
