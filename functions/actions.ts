// Acting from a message, without an API key (docs/notifications.md): the signed links' confirmation page
// (GET /actions/{token}, never acts) and its form (POST, acts), where the token authenticates and pages are
// HTML; and Slack's button clicks (POST /slack/interactions), where Slack's request signature authenticates.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { nowMs } from '#lib/clock.ts';
import { htmlPage } from '#lib/channel-adapters/action-page.ts';
import { actOnLink, linkConfirmation, type LinkPage } from '#lib/delivery/link-actions.ts';
import { onSlackInteraction } from '#lib/delivery/slack-interactions.ts';
import { HttpError } from '#lib/api-shapes/http-errors.ts';
import type { HttpResult } from '#lib/http/responses.ts';
import { routeMapHandler, type RouteMap } from '#lib/http/route-map.ts';
import { loadSecrets } from '#lib/channel-adapters/secrets.ts';
import { rawBody } from '#lib/api-shapes/body.ts';
import { DELIVERY_OWNERS } from '#lib/wiring/delivery-owners.ts';

// On AWS, provider credentials and the link key come from the stack's secret, read once per cold start (docs/notifications.md).
await loadSecrets();

const page = (result: LinkPage): HttpResult => htmlPage(result.status, result.view);
const tokenOf = (event: APIGatewayProxyEventV2) => event.pathParameters?.token ?? '';

async function slackInteraction(event: APIGatewayProxyEventV2): Promise<HttpResult> {
  const headers = event.headers ?? {};
  const answer = await onSlackInteraction(DELIVERY_OWNERS, {
    body: rawBody(event),
    timestamp: headers['x-slack-request-timestamp'],
    signature: headers['x-slack-signature'],
    now: nowMs(),
  });
  if (answer.status !== 200) throw new HttpError(answer.status, answer.message);
  return { statusCode: 200, headers: {}, body: '' };
}

const ROUTES: RouteMap = {
  'POST /slack/interactions': slackInteraction,
  'GET /actions/{token}': async (event) => page(await linkConfirmation(DELIVERY_OWNERS, tokenOf(event), nowMs())),
  'POST /actions/{token}': async (event) => page(await actOnLink(DELIVERY_OWNERS, tokenOf(event), nowMs())),
};

export const handler = routeMapHandler(ROUTES);
