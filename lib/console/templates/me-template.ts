// Template of /me: how Hark reaches me, my rule, my push topic, my shifts, my alerts and my invitations.
import { compile } from '../layout.ts';

export interface MeView {
  readonly name: string;
  readonly contacts: readonly { channel: string; address: string; reachable: boolean; why: string }[];
  readonly rule: string;
  readonly push: { topic: string | null; url: string | null };
  readonly shifts: readonly { schedule: string; scheduleId: string; layer: number; from: string; to: string }[];
  readonly alerts: readonly { id: string; title: string; status: string }[];
  readonly invitations: readonly { accountId: string; name: string }[];
  readonly csrf: string;
  readonly zone: string;
  readonly done?: string;
}

export const mePage = compile<MeView>(`<h1>{{name}}</h1>
{{#if done}}<p class="notice" role="status">{{done}}</p>{{/if}}
<h2>How Hark reaches me</h2>
{{#if contacts.length}}<div class="table-wrap"><table>
<caption class="sr-only">Contact methods and whether each can be reached</caption>
<thead><tr><th scope="col">Channel</th><th scope="col">Address</th><th scope="col">Can be reached</th></tr></thead>
<tbody>{{#each contacts}}<tr><td>{{channel}}</td><td class="url">{{address}}</td><td>{{#if reachable}}Yes{{else}}No: {{why}}{{/if}}</td></tr>{{/each}}</tbody>
</table></div>{{else}}<p class="muted">No contact methods.</p>{{/if}}
<h2>My notification rule</h2>
<p>{{rule}}</p>
<h2>My push topic</h2>
{{#if push.topic}}<p>Subscribe to <span class="url">{{push.url}}</span> in the ntfy app to get pages as push notifications. Keep it to yourself: anyone with the topic can read your pages.</p>{{else}}<p class="muted">Push is not configured on this Hark.</p>{{/if}}
<h2>My next shifts</h2>
<p class="muted">Times in {{zone}}.</p>
{{#if shifts.length}}<div class="table-wrap"><table>
<caption class="sr-only">My shifts in the next 14 days</caption>
<thead><tr><th scope="col">Schedule</th><th scope="col">Layer</th><th scope="col">From</th><th scope="col">To</th></tr></thead>
<tbody>{{#each shifts}}<tr><td><a href="/schedules/{{scheduleId}}">{{schedule}}</a></td><td>{{layer}}</td><td>{{from}}</td><td>{{to}}</td></tr>{{/each}}</tbody>
</table></div>{{else}}<p class="muted">No shifts in the next 14 days.</p>{{/if}}
<h2>Active alerts paged to me</h2>
{{#if alerts.length}}<ul>{{#each alerts}}<li><a href="/alerts/{{id}}">{{title}}</a> ({{status}})</li>{{/each}}</ul>{{else}}<p class="muted">None.</p>{{/if}}
<h2>Invitations to other accounts</h2>
{{#if invitations.length}}<ul class="cards">
{{#each invitations}}<li class="card"><h3>{{name}}</h3><div class="actions">
<form method="post" action="/me/invitations/{{accountId}}/accept"><input type="hidden" name="csrf" value="{{../csrf}}"><button type="submit">Accept</button></form>
<form method="post" action="/me/invitations/{{accountId}}/deny"><input type="hidden" name="csrf" value="{{../csrf}}"><button type="submit" class="secondary">Deny</button></form>
</div></li>
{{/each}}</ul>{{else}}<p class="muted">No pending invitations.</p>{{/if}}
`);
