// The alert lifecycle: which action is allowed from which status, and the refusal the API answers (422)
// otherwise. Pure; rules: docs/alerts.md.

export const ALERT_STATUSES = ['queued', 'open', 'acknowledged', 'resolved', 'dropped', 'suppressed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_ACTIONS = ['acknowledge', 'resolve', 'reject'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];

export type TransitionResult = { ok: true; status: AlertStatus } | { ok: false; message: string };

interface ActionRule {
  from: readonly AlertStatus[];
  to: AlertStatus;
  /** How the refusal names the allowed statuses, e.g. "an open, dropped or suppressed alert". */
  allowed: string;
  verb: string;
}

const RULES: Record<AlertAction, ActionRule> = {
  acknowledge: { from: ['open', 'dropped', 'suppressed'], to: 'acknowledged', allowed: 'an open, dropped or suppressed alert', verb: 'acknowledged' },
  resolve: { from: ['open', 'dropped', 'acknowledged'], to: 'resolved', allowed: 'an open, dropped or acknowledged alert', verb: 'resolved' },
  // Rejecting hands the page on; the alert stays open (the caller's workflow closes, see docs/alerts.md).
  reject: { from: ['open'], to: 'open', allowed: 'an open alert', verb: 'rejected' },
};

/** The statuses `action` is allowed from. */
export const allowedFrom = (action: AlertAction): readonly AlertStatus[] => RULES[action].from;

/**
 * The status after `action`, or the refusal naming the current status, worded exactly as the 422 message:
 * "status is resolved; only an open, dropped or suppressed alert can be acknowledged".
 */
export function transition(status: AlertStatus, action: AlertAction): TransitionResult {
  const rule = RULES[action];
  if (rule.from.includes(status)) return { ok: true, status: rule.to };
  return { ok: false, message: `status is ${status}; only ${rule.allowed} can be ${rule.verb}` };
}
