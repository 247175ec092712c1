// Templates of who is on call: every team's layers now, and one schedule's next days as a picture and a table.
import { compile } from '../layout.ts';
import type { Picture } from '../schedule-picture.ts';

export interface TeamOnCall {
  readonly name: string;
  readonly scheduleId: string;
  readonly scheduleName: string;
  readonly layers: readonly { layer: number; who: string; until: string; next: string }[];
}

export const onCallPage = compile<{ teams: readonly TeamOnCall[]; zone: string }>(`<h1>Who is on call</h1>
<p class="muted">Times in {{zone}}.</p>
{{#each teams}}<section class="card" aria-labelledby="team-{{@index}}">
<h2 id="team-{{@index}}">{{name}}</h2>
<p><a href="/schedules/{{scheduleId}}">Schedule: {{scheduleName}}</a></p>
{{#if layers.length}}<div class="table-wrap"><table>
<caption class="sr-only">On call now in {{name}}, by layer</caption>
<thead><tr><th scope="col">Layer</th><th scope="col">On call now</th><th scope="col">Until</th><th scope="col">Next hand-off</th></tr></thead>
<tbody>{{#each layers}}<tr><td>{{layer}}</td><td>{{who}}</td><td>{{until}}</td><td>{{next}}</td></tr>{{/each}}</tbody>
</table></div>{{else}}<p class="muted">Nobody is on call on this schedule in the next 14 days.</p>{{/if}}
</section>
{{else}}<p class="notice">No teams yet.</p>{{/each}}
`);

export interface ScheduleView {
  readonly name: string;
  readonly zone: string;
  readonly picture: Picture;
  readonly shifts: readonly { layer: number; who: string; from: string; to: string; override: boolean }[];
  readonly days: number;
}

export const schedulePage = compile<ScheduleView>(`<p><a href="/on-call">← Who is on call</a></p>
<h1>{{name}}</h1>
<p class="muted">The next {{days}} days, drawn in {{zone}}. Override shifts are dashed and say “override”; the red line is now.</p>
<figure class="svg-wrap" aria-hidden="true">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {{picture.width}} {{picture.height}}" width="{{picture.width}}" height="{{picture.height}}" font-family="system-ui, sans-serif" font-size="12" focusable="false">
{{#each picture.lanes}}<rect x="0" y="{{y}}" width="{{../picture.width}}" height="{{height}}" fill="{{#if @odd}}#f2f4f7{{else}}#ffffff{{/if}}"/><text x="4" y="{{labelY}}" fill="#1b1b1b">{{label}}</text>
{{/each}}{{#each picture.days}}<line x1="{{x}}" y1="0" x2="{{x}}" y2="{{../picture.height}}" stroke="#c4c8cf" stroke-width="1"/><text x="{{labelX}}" y="14" fill="#444" font-size="11">{{label}}</text>
{{/each}}{{#each picture.bars}}<g><title>{{title}}</title><rect x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}" rx="3" fill="{{#if override}}#fbe3c2{{else}}#cfe0f7{{/if}}" stroke="{{#if override}}#8a5300{{else}}#0b4fa8{{/if}}"{{#if override}} stroke-dasharray="4 2"{{/if}}/>{{#if showLabel}}<text x="{{labelX}}" y="{{labelY}}" fill="#1b1b1b">{{label}}</text>{{/if}}</g>
{{/each}}{{#if picture.now}}<line x1="{{picture.now.x}}" y1="{{picture.axisY}}" x2="{{picture.now.x}}" y2="{{picture.height}}" stroke="#b3261e" stroke-width="2"/><text x="{{picture.now.x}}" y="{{picture.axisY}}" fill="#b3261e" font-size="11" text-anchor="middle">now</text>{{/if}}
</svg>
</figure>
<h2>Shifts</h2>
{{#if shifts.length}}<div class="table-wrap"><table>
<caption class="sr-only">Shifts of the next {{days}} days, by layer</caption>
<thead><tr><th scope="col">Layer</th><th scope="col">Who</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Kind</th></tr></thead>
<tbody>{{#each shifts}}<tr><td>{{layer}}</td><td>{{who}}</td><td>{{from}}</td><td>{{to}}</td><td>{{#if override}}override{{else}}regular{{/if}}</td></tr>{{/each}}</tbody>
</table></div>{{else}}<p class="muted">Nobody is on call in the next {{days}} days.</p>{{/if}}
`);
