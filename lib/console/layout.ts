// Rendering with Handlebars, which escapes every `{{value}}` (an alert titled <script> shows as text). Templates are
// compiled once, when the module loads (a Lambda's cold start), and the layout wraps each page's body.
import Handlebars from 'handlebars';
import { SCRIPT, STYLESHEET } from './assets.ts';

const hbs = Handlebars.create();
hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);

/** Compiles a template now (Handlebars compiles lazily by default) so no request pays for it. */
export function compile<T>(source: string): (view: T) => string {
  const template = hbs.compile<T>(source, { strict: false, noEscape: false });
  template({} as T);
  return template;
}

export interface NavLink {
  readonly href: string;
  readonly label: string;
  readonly current: boolean;
}

export interface LayoutView {
  readonly title: string;
  /** The page's body, already rendered (escaped) by its own template. */
  readonly body: string;
  readonly nav?: readonly NavLink[];
  readonly person?: { readonly name: string; readonly accountName: string; readonly csrf: string; readonly switchAccounts: boolean };
  /** Pages that refresh themselves load the script; every other page has none. */
  readonly script?: boolean;
}

const layout = compile<LayoutView & { stylesheet: string; scriptFile: string }>(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>{{title}} · Hark</title>
<link rel="stylesheet" href="/assets/{{stylesheet}}">
{{#if script}}<script src="/assets/{{scriptFile}}" defer></script>{{/if}}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/alerts">Hark</a>
{{#if nav}}<nav aria-label="Main"><ul>{{#each nav}}<li><a href="{{href}}"{{#if current}} aria-current="page"{{/if}}>{{label}}</a></li>{{/each}}</ul></nav>{{/if}}
{{#if person}}<span>{{person.name}} · {{person.accountName}}{{#if person.switchAccounts}} (<a href="/accounts">switch</a>){{/if}}</span>
<form method="post" action="/sign-out"><input type="hidden" name="csrf" value="{{person.csrf}}"><button type="submit">Sign out</button></form>{{/if}}
</header>
<main id="main" tabindex="-1">
{{{body}}}
</main>
</body>
</html>
`);

export const renderLayout = (view: LayoutView): string => layout({ ...view, stylesheet: STYLESHEET.file, scriptFile: SCRIPT.file });

/** A page with a heading and a sentence (errors, notices). */
export const messageBody = compile<{ title: string; text: string; kind?: 'error' | 'notice'; link?: { href: string; label: string } }>(`<h1>{{title}}</h1>
<p class="{{#if kind}}{{kind}}{{else}}notice{{/if}}">{{text}}</p>
{{#if link}}<p><a href="{{link.href}}">{{link.label}}</a></p>{{/if}}
`);
