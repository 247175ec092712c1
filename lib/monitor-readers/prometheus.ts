// Prometheus Alertmanager's webhook receiver (payload version 4): one Hark alert per notification group
// (docs/monitors.md, "Prometheus Alertmanager"). Pure.
import { alertGroupOptions, readAlertGroup, type GroupSender } from './alert-groups.ts';
import type { IntegrationReader } from './types.ts';

const ALERTMANAGER: GroupSender = { name: 'Alertmanager', version: '4', memberLinks: [] };

export const prometheusReader: IntegrationReader = {
  id: 'prometheus',
  name: 'Prometheus Alertmanager',
  description: 'Alertmanager webhook_config (payload version 4): one alert per notification group, or per alert with alert_per',
  docs: 'docs/monitors.md#prometheus-alertmanager',
  options: alertGroupOptions,
  read: (request, options) => readAlertGroup(request, options, ALERTMANAGER),
};
