/** Alarm severities and their labels (DESIGN D5): 1 is the worst. Watchers, alarms and rooms share them. */
export const SEVERITIES = { 1: 'Critical', 2: 'Major', 3: 'Minor', 4: 'Info' } as const;
export type Severity = keyof typeof SEVERITIES;
export type SeverityLabel = (typeof SEVERITIES)[Severity];
export const MIN_SEVERITY = 1;
export const MAX_SEVERITY = 4;
