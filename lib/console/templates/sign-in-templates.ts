// Templates of the sign-in pages and the account picker.
import { compile } from '../layout.ts';

export const signInForm = compile<{ next: string; sent: boolean; invalidEmail?: string }>(`<h1>Sign in to Hark</h1>
{{#if sent}}<p class="notice" role="status">If that address belongs to someone here, a sign-in link is on its way. It works once, for 15 minutes.</p>{{/if}}
{{#if invalidEmail}}<p class="error" role="alert">{{invalidEmail}}</p>{{/if}}
<form method="post" action="/sign-in">
<input type="hidden" name="next" value="{{next}}">
<p><label for="email">Email address</label><br>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" size="30"></p>
<p><button type="submit">Email me a sign-in link</button></p>
</form>
<p class="muted">Hark has no passwords: you get a link by email each time you sign in.</p>
`);

export const signInConfirm = compile<{ token: string; live: boolean; noAccount?: boolean; crossSite?: boolean }>(`<h1>Sign in to Hark</h1>
{{#if crossSite}}<p class="error" role="alert">This sign-in was sent from another site, so it was not used. Open your sign-in link yourself and press its button.</p>
{{else if noAccount}}<p class="error" role="alert">You are not a member of any account here. Ask an admin of your account to add you.</p>
{{else if live}}<form method="post" action="/sign-in/{{token}}">
<p><button type="submit">Sign in</button></p>
</form>
{{else}}<p class="error" role="alert">This sign-in link has expired or was already used. Links work once, within 15 minutes.</p>
<p><a href="/sign-in">Ask for a new link</a></p>{{/if}}
`);

export interface AccountChoice {
  readonly accountId: string;
  readonly name: string;
  readonly current: boolean;
}

export const accountPicker = compile<{ accounts: readonly AccountChoice[]; invitations: readonly AccountChoice[]; csrf: string; next: string }>(`<h1>Choose an account</h1>
{{#if accounts.length}}<ul class="cards">
{{#each accounts}}<li class="card"><form method="post" action="/accounts">
<input type="hidden" name="csrf" value="{{../csrf}}"><input type="hidden" name="next" value="{{../next}}">
<input type="hidden" name="account_id" value="{{accountId}}">
<button type="submit">{{name}}</button>{{#if current}} <span class="muted">(current)</span>{{/if}}
</form></li>
{{/each}}</ul>{{else}}<p class="notice">You have not joined any account yet.</p>{{/if}}
{{#if invitations.length}}<h2>Invitations</h2>
<ul class="cards">
{{#each invitations}}<li class="card"><h3>{{name}}</h3><div class="actions">
<form method="post" action="/me/invitations/{{accountId}}/accept"><input type="hidden" name="csrf" value="{{../csrf}}"><button type="submit">Accept</button></form>
<form method="post" action="/me/invitations/{{accountId}}/deny"><input type="hidden" name="csrf" value="{{../csrf}}"><button type="submit" class="secondary">Deny</button></form>
</div></li>
{{/each}}</ul>{{/if}}
`);
