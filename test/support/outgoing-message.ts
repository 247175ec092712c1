// The message an adapter is handed, for the adapters' tests: defaults of an alert page, each field overridable.
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';

/** The acknowledge and resolve links an alert's page carries. */
export const ALERT_ACTIONS: OutgoingMessage['actions'] = [
  { action: 'acknowledge', label: 'Acknowledge', url: 'https://hark.example.com/actions/ack.token' },
  { action: 'resolve', label: 'Resolve', url: 'https://hark.example.com/actions/res.token' },
];

export const outgoingMessage = (overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  notificationId: '01JNOTIF',
  accountId: '01JACCOUNT',
  channel: 'email',
  to: '01JPERSON',
  accountUserId: '01JPERSON',
  subject: 'Alert #12: Disk full on db-1',
  text: 'Urgency: high',
  actions: [],
  about: { ownerType: 'alert', ownerId: '01JALERT', prefixId: 'ALR_1' },
  ...overrides,
});
