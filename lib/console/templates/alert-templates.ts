// Templates of the alert pages. Every value is escaped by Handlebars; colours always come with a word.
import { compile } from '../layout.ts';
import type { AlertRow } from '../alert-list.ts';

export interface Choice {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
}

export interface AlertListView {
  readonly rows: readonly AlertRow[];
  readonly statuses: readonly Choice[];
  readonly teams: readonly Choice[];
  readonly urgencies: readonly Choice[];
  readonly q: string;
  readonly total: number;
  /** "of 40", or "of more than 25" when a search stopped at the next page. */
  readonly totalText: string;
  readonly from: number;
  readonly to: number;
  /** A search's reach: the newest alerts it reads, and the API request that searches them all. */
  readonly search?: { readonly window: string; readonly scope: string; readonly apiPath: string };
  readonly previous?: string;
  readonly next?: string;
  readonly refreshSeconds: number;
}

export const alertList = compile<AlertListView>(`<h1>Alerts</h1>
<form class="filters" method="get" action="/alerts" role="search" aria-label="Filter alerts">
<label for="f-status">Status<select id="f-status" name="status"><option value="">Active first (all)</option>{{#each statuses}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select></label>
<label for="f-team">Team<select id="f-team" name="team"><option value="">All teams</option>{{#each teams}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select></label>
<label for="f-urgency">Urgency<select id="f-urgency" name="urgency"><option value="">Any urgency</option>{{#each urgencies}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select></label>
<label for="f-q">Search<input id="f-q" name="q" type="search" value="{{q}}" maxlength="200"></label>
<button type="submit">Show</button>
</form>
<section data-refresh="{{refreshSeconds}}" aria-live="polite" aria-label="Alert list">
<p class="muted">{{#if total}}Alerts {{from}}–{{to}} {{totalText}}.{{else}}No alerts match.{{/if}} This list refreshes itself every {{refreshSeconds}} seconds.</p>
{{#if search}}<p class="muted search-reach">This search reads only the newest {{search.window}} alerts {{search.scope}}. To search every alert, use the API: <a href="{{search.apiPath}}"><code>GET {{search.apiPath}}</code></a> with an API key.</p>{{/if}}
<ul class="cards">
{{#each rows}}<li class="card">
<h2><a href="/alerts/{{id}}">{{title}}</a></h2>
<ul class="meta">
<li><span class="badge {{statusClass}}">Status: {{status}}</span></li>
<li><span class="badge urgency-{{urgency}}">Urgency: {{urgency}}</span></li>
<li>Created <time datetime="{{createdAt}}">{{age}}</time></li>
<li>Team: {{teams}}</li>
<li>Paged: {{paged}}</li>
<li><span class="muted">{{prefixId}}</span></li>
</ul>
</li>
{{/each}}</ul>
{{#if total}}<nav class="pager" aria-label="Pages">{{#if previous}}<a href="{{previous}}" rel="prev">Previous page</a>{{/if}}{{#if next}}<a href="{{next}}" rel="next">Next page</a>{{/if}}</nav>{{/if}}
</section>
`);

export interface TimelineEntry {
  readonly at: string;
  readonly when: string;
  readonly text: string;
}

export interface AlertView {
  readonly id: string;
  readonly prefixId: string;
  readonly title: string;
  readonly fields: readonly { name: string; value: string }[];
  readonly description: string | null;
  readonly actions: readonly { action: string; label: string; danger: boolean }[];
  readonly csrf: string;
  readonly timeline: readonly TimelineEntry[];
  readonly notifications: readonly { who: string; channel: string; type: string; status: string; detail: string; when: string }[];
  readonly comments: readonly { by: string; when: string; body: string }[];
  readonly done?: string;
}

export const alertPage = compile<AlertView>(`<p><a href="/alerts">← All alerts</a></p>
<h1>{{title}}</h1>
{{#if done}}<p class="notice" role="status">{{done}}</p>{{/if}}
{{#if actions.length}}<div class="actions">
{{#each actions}}<form method="post" action="/alerts/{{../id}}/{{action}}"><input type="hidden" name="csrf" value="{{../csrf}}"><button type="submit"{{#if danger}} class="secondary"{{/if}}>{{label}}</button></form>
{{/each}}</div>{{else}}<p class="muted">No action is possible from this status.</p>{{/if}}
<h2>Details</h2>
<dl class="fields">
{{#each fields}}<dt>{{name}}</dt><dd>{{value}}</dd>
{{/each}}</dl>
{{#if description}}<h2>Description</h2><pre>{{description}}</pre>{{/if}}
<h2>Timeline</h2>
<ol class="timeline">
{{#each timeline}}<li><time datetime="{{at}}">{{when}}</time>: {{text}}</li>
{{/each}}</ol>
<h2>Notifications</h2>
{{#if notifications.length}}<div class="table-wrap"><table>
<caption class="sr-only">Messages sent about this alert</caption>
<thead><tr><th scope="col">To</th><th scope="col">Channel</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">When</th></tr></thead>
<tbody>{{#each notifications}}<tr><td>{{who}}</td><td>{{channel}}</td><td>{{type}}</td><td>{{status}}{{#if detail}} ({{detail}}){{/if}}</td><td>{{when}}</td></tr>{{/each}}</tbody>
</table></div>{{else}}<p class="muted">No messages yet.</p>{{/if}}
<h2>Comments</h2>
{{#if comments.length}}<ul class="cards">{{#each comments}}<li class="card"><p class="muted">{{by}}, {{when}}</p><pre>{{body}}</pre></li>{{/each}}</ul>{{else}}<p class="muted">No comments yet.</p>{{/if}}
<form method="post" action="/alerts/{{id}}/comments">
<input type="hidden" name="csrf" value="{{csrf}}">
<p><label for="comment-body">Add a comment</label><br><textarea id="comment-body" name="body" required></textarea></p>
<p><button type="submit">Comment</button></p>
</form>
`);
