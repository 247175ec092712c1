// Grafana Alerting's webhook contact point (its Alertmanager's payload, version 1): one Hark alert per notification
// group, with Grafana's dashboard, panel and silence links (docs/monitors.md, "Grafana Alerting"). Pure.
import { alertGroupOptions, readAlertGroup, type GroupSender } from './alert-groups.ts';
import { text } from './monitor-fields.ts';
import type { IntegrationReader } from './types.ts';

const GRAFANA: GroupSender = {
  name: 'Grafana',
  version: '1',
  memberLinks: [
    ['dashboardURL', 'Dashboard'],
    ['panelURL', 'Panel'],
    ['silenceURL', 'Silence'],
  ],
  // Grafana always sends groupKey; a payload without one is keyed by the alert rule its members share.
  fallbackKey: (members) => {
    const rules = [...new Set(members.map((member) => text(member.ruleUID)).filter((uid) => uid !== undefined))];
    return rules.length > 0 ? `rule:${rules.join(',')}` : undefined;
  },
  // Grafana's own title ("[FIRING:2] High memory usage (blue)") before the alert name with the group labels.
  ownTitle: (payload) => text(payload.title)?.replace(/^\[(FIRING|RESOLVED)(:\d+)?\]\s*/i, ''),
};

export const grafanaReader: IntegrationReader = {
  id: 'grafana',
  name: 'Grafana Alerting',
  description: 'Grafana Alerting webhook contact point: one alert per notification group, or per alert with alert_per',
  docs: 'docs/monitors.md#grafana-alerting',
  options: alertGroupOptions,
  read: (request, options) => readAlertGroup(request, options, GRAFANA),
};
