// The console's one stylesheet and one script, served at URLs carrying a hash of their content, so they are cached
// for a year and a new version gets a new URL (docs/console.md, "Pages"). No inline style or script anywhere: the
// Content-Security-Policy allows only these.
import { createHash } from 'node:crypto';

const CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#f6f7f9}
a{color:#0b4fa8}
a:focus,button:focus,input:focus,select:focus,textarea:focus,summary:focus{outline:3px solid #f2a900;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}
.skip:focus{left:.5rem;z-index:10}
header.top{background:#16233a;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
header.top a{color:#fff}
header.top .brand{font-weight:700;text-decoration:none;margin-right:auto}
header.top nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:0;padding:0}
header.top nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header.top form{margin:0}
header.top button{background:transparent;color:#fff;border:1px solid #fff;border-radius:.3rem;padding:.2rem .6rem;font:inherit;cursor:pointer}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.muted{color:#555}
.notice{background:#e8f1fb;border-left:4px solid #0b4fa8;padding:.75rem 1rem;margin:1rem 0}
.error{background:#fdecea;border-left:4px solid #b3261e;padding:.75rem 1rem;margin:1rem 0}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin-bottom:1rem}
form.filters label{display:flex;flex-direction:column;font-size:.9rem}
input,select,textarea{font:inherit;padding:.4rem;border:1px solid #767676;border-radius:.3rem;max-width:100%;background:#fff;color:#1b1b1b}
textarea{width:100%;min-height:5rem}
button,.button{font:inherit;padding:.5rem 1rem;border:0;border-radius:.3rem;background:#0b4fa8;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:#0b4fa8;border:1px solid #0b4fa8}
button.danger{background:#b3261e}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}
.actions form{margin:0}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #ddd;vertical-align:top;overflow-wrap:anywhere}
caption{text-align:left;font-weight:700;padding:.5rem 0}
.cards{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
.card{background:#fff;border:1px solid #ddd;border-radius:.4rem;padding:.75rem}
.card h2,.card h3{margin:0 0 .25rem;font-size:1.05rem;overflow-wrap:anywhere}
.meta{display:flex;flex-wrap:wrap;gap:.25rem .75rem;font-size:.9rem;color:#444;margin:0;padding:0;list-style:none}
.badge{display:inline-block;padding:0 .45rem;border-radius:.3rem;font-size:.85rem;font-weight:600;border:1px solid currentColor}
.status-open{color:#b3261e}.status-acknowledged{color:#8a5300}.status-resolved{color:#1e6b2e}.status-other{color:#555}
.urgency-critical,.urgency-high{color:#b3261e}.urgency-medium{color:#8a5300}.urgency-low{color:#555}
dl.fields{display:grid;grid-template-columns:minmax(6rem,max-content) 1fr;gap:.25rem 1rem;background:#fff;padding:.75rem;border:1px solid #ddd;border-radius:.4rem}
dl.fields dt{font-weight:600}
dl.fields dd{margin:0;overflow-wrap:anywhere}
ol.timeline{list-style:none;padding:0;margin:0;border-left:3px solid #ccd;padding-left:1rem}
ol.timeline li{margin:0 0 .75rem}
.pager{display:flex;gap:1rem;margin:1rem 0;align-items:center}
.svg-wrap{background:#fff;border:1px solid #ddd;border-radius:.4rem;overflow:hidden}
.svg-wrap svg{display:block;width:100%;height:auto}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
code,.url{font-family:ui-monospace,monospace;font-size:.9rem;overflow-wrap:anywhere;word-break:break-all}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;border:1px solid #ddd;padding:.5rem}
@media (max-width:40rem){main{padding:.75rem}dl.fields{grid-template-columns:1fr}dl.fields dt{margin-top:.4rem}}
`;

/**
 * Refreshes a page's `[data-refresh]` region every N seconds while the tab is visible, by fetching the same URL and
 * swapping the region: the page works the same without it (reload by hand).
 */
const JS = `(function(){
var region=document.querySelector('[data-refresh]');
if(!region||!window.fetch||!window.DOMParser)return;
var seconds=parseInt(region.getAttribute('data-refresh'),10)||30;
function refresh(){
if(document.visibilityState!=='visible')return;
fetch(location.href,{credentials:'same-origin',headers:{'accept':'text/html'}}).then(function(r){return r.ok?r.text():null}).then(function(html){
if(!html)return;
var fresh=new DOMParser().parseFromString(html,'text/html').querySelector('[data-refresh]');
if(fresh&&document.activeElement&&region.contains(document.activeElement))return;
if(fresh)region.innerHTML=fresh.innerHTML;
}).catch(function(){});
}
setInterval(refresh,seconds*1000);
})();
`;

interface Asset {
  readonly file: string;
  readonly contentType: string;
  readonly body: string;
}

const hashed = (name: string, ext: string, body: string, contentType: string): Asset => ({
  file: `${name}.${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${ext}`,
  contentType,
  body,
});

export const STYLESHEET: Asset = hashed('console', 'css', CSS, 'text/css; charset=utf-8');
export const SCRIPT: Asset = hashed('console', 'js', JS, 'text/javascript; charset=utf-8');

/** The asset a `/assets/<file>` path names, or undefined (an old hash, or anything else). */
export const assetNamed = (file: string): Asset | undefined => [STYLESHEET, SCRIPT].find((a) => a.file === file);
