// /integrations (admins; docs/console.md, "Pages"): each integration's URL to copy, its type, and its last
// requests with what Hark made of each, read from the same logs as GET /logs.
import { inboundUrlPath, listIntegrations } from '../../integrations/service.ts';
import { senderKeyOf, senderKeyOptionOf, senderKeyUrlOf } from '../../integrations/sender-key.ts';
import { logListSource } from '../../ingest/logs.ts';
import { CONSOLE_INTEGRATION_LOGS } from '../../limits.ts';
import type { ConsoleRequest, SignedIn } from '../request.ts';
import type { PageResult } from '../page.ts';
import { integrationsPage, type IntegrationView } from '../templates/admin-templates.ts';
import { isZone, wallTime } from '../display-time.ts';

type Account = SignedIn & { caller: NonNullable<SignedIn['caller']> };

interface ListedLog {
  created_at: string;
  details: { message: string; sublogs: { message: string; alert_id: string | null }[] };
}

function senderKeyOfView(integration: Awaited<ReturnType<typeof listIntegrations>>[number]): IntegrationView['senderKey'] {
  const type = integration.data.integration_type.id;
  const option = senderKeyOptionOf(type);
  const value = senderKeyOf(type, integration.data.options);
  return option !== undefined && value !== undefined ? { name: option, value } : null;
}

export async function integrationsOf(request: ConsoleRequest, who: Account): Promise<PageResult> {
  const accountId = who.caller.accountId;
  const zone = isZone(who.person.time_zone) ? who.person.time_zone : 'UTC';
  const integrations = (await listIntegrations(accountId)).sort((a, b) => a.data.name.localeCompare(b.data.name));
  const views: IntegrationView[] = await Promise.all(
    integrations.map(async (integration) => {
      const source = logListSource(accountId, { by: 'integration', integrationId: integration.id });
      const logs = (source.firstInKeyOrder ? (await source.firstInKeyOrder(CONSOLE_INTEGRATION_LOGS, true)).objects : []) as unknown as ListedLog[];
      return {
        name: integration.data.name,
        type: integration.data.integration_type.name,
        enabled: integration.data.enabled,
        // A type whose senders name a key posts to its API's one URL (PagerDuty's /v2/enqueue) with it; only admins see this page.
        url: `${request.baseUrl}${senderKeyUrlOf(integration.data.integration_type.id) ?? inboundUrlPath(integration.prefixId)}`,
        senderKey: senderKeyOfView(integration),
        requests: logs.map((log) => {
          const notes = log.details.sublogs;
          return {
            when: wallTime(Date.parse(log.created_at), zone),
            request: log.details.message,
            outcome: notes.map((n) => n.message).join(' · ') || 'accepted, not processed yet',
            alertId: notes.find((n) => n.alert_id)?.alert_id ?? null,
          };
        }),
      };
    }),
  );
  return { title: 'Integrations', body: integrationsPage({ integrations: views, shown: CONSOLE_INTEGRATION_LOGS }) };
}
