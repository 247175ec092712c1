// Templates of the admins' pages: integrations with their recent requests, and the local inbox.
import { compile } from '../layout.ts';

export interface IntegrationView {
  readonly name: string;
  readonly type: string;
  readonly enabled: boolean;
  readonly url: string;
  /** A type whose senders name a key (a pagerduty routing_key): its name and value, shown beside the URL. */
  readonly senderKey: { readonly name: string; readonly value: string } | null;
  readonly requests: readonly { when: string; request: string; outcome: string; alertId: string | null }[];
}

export const integrationsPage = compile<{ integrations: readonly IntegrationView[]; shown: number }>(`<h1>Integrations</h1>
<p class="muted">Point a monitor at an integration's URL. Each integration shows its last {{shown}} requests and what Hark made of them.</p>
{{#each integrations}}<section class="card" aria-labelledby="int-{{@index}}">
<h2 id="int-{{@index}}">{{name}}</h2>
<ul class="meta"><li>Type: {{type}}</li><li>{{#if enabled}}Enabled{{else}}Disabled (requests refused){{/if}}</li></ul>
<p><label for="url-{{@index}}">{{#if senderKey}}Events API URL{{else}}Webhook URL{{/if}}</label><br><input id="url-{{@index}}" class="url" type="text" readonly value="{{url}}" size="40"></p>
{{#if senderKey}}<p><label for="key-{{@index}}">{{senderKey.name}}</label><br><input id="key-{{@index}}" class="url" type="text" readonly value="{{senderKey.value}}" size="40"></p>{{/if}}
{{#if requests.length}}<div class="table-wrap"><table>
<caption class="sr-only">Last requests to {{name}}</caption>
<thead><tr><th scope="col">When</th><th scope="col">Request</th><th scope="col">What Hark made of it</th></tr></thead>
<tbody>{{#each requests}}<tr><td>{{when}}</td><td>{{request}}</td><td>{{outcome}}{{#if alertId}} <a href="/alerts/{{alertId}}">(alert)</a>{{/if}}</td></tr>{{/each}}</tbody>
</table></div>{{else}}<p class="muted">No requests yet.</p>{{/if}}
</section>
{{else}}<p class="notice">No integrations yet: create one with the API (POST /api/v4/integrations).</p>{{/each}}
`);

export interface InboxMessage {
  readonly when: string;
  readonly channel: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly actions: readonly { label: string; url: string }[];
}

export const inboxPage = compile<{ messages: readonly InboxMessage[]; shown: number }>(`<h1>Local inbox</h1>
<p class="muted">With npm start, messages for a channel with no provider configured land here instead of leaving the machine (the newest {{shown}}). Their links work as in a real message.</p>
{{#if messages.length}}<ul class="cards" data-refresh="15">
{{#each messages}}<li class="card"><h2>{{subject}}</h2>
<ul class="meta"><li>{{channel}} to {{to}}</li><li>{{when}}</li></ul>
<pre>{{text}}</pre>
{{#if actions.length}}<p>{{#each actions}}<a class="button" href="{{url}}">{{label}}</a> {{/each}}</p>{{/if}}
</li>
{{/each}}</ul>{{else}}<p class="notice" data-refresh="15">No messages yet.</p>{{/if}}
`);
