// The small HTML pages a signed link opens (docs/notifications.md, "The confirmation page"): a question with one
// form button, or a sentence saying what happened. Handlebars escapes every value (an alert's title is the
// sender's text). No script, nothing loaded from elsewhere; the headers keep the page out of caches, search
// engines, frames and other sites' referrer logs.
import Handlebars from 'handlebars';

/** A page for a person: a sentence, and a form button when the page asks before acting. */
export interface PageView {
  readonly title: string;
  readonly text: string;
  /** The words on the form's button; absent on a page that only says what happened. */
  readonly button?: string;
}

export interface HtmlResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const template = Handlebars.compile<PageView>(
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>{{title}} · Hark</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.6rem 1.4rem;border:0;border-radius:.3rem;background:#1f5fbf;color:#fff;cursor:pointer}</style>
</head>
<body>
<h1>{{title}}</h1>
<p>{{text}}</p>
{{#if button}}<form method="post"><button type="submit">{{button}}</button></form>{{/if}}
</body>
</html>
`,
  { strict: false },
);

/** Headers of every page: never cached or indexed, never framed, no script, the token never sent as a referrer. */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

export function htmlPage(status: number, view: PageView): HtmlResult {
  return { statusCode: status, headers: { ...PAGE_HEADERS }, body: template(view) };
}
