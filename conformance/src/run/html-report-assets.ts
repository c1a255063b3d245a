// The style and script report.html carries inline (one file, no network, opened from file:// or a
// CI artefact), and the Content-Security-Policy that lets only that script run: whatever a server
// under test answers is escaped into the page, and should an escape ever be missed, a script it
// smuggled in still does not run (no inline script but ours, by hash; no fetch, no image from
// elsewhere).
import { createHash } from 'node:crypto';

export const STYLE = `:root{--failed:#c62828;--passed:#2e7d32;--known:#e67e00;--skipped:#8a8f98;--missing:#c5cad3;--scope:#e6e8ec;--line:#e3e5e8;--soft:#f6f7f9}
*{box-sizing:border-box}[hidden]{display:none!important}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:84em;margin:0 auto;padding:1.2em 2em 4em}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin:1.8em 0 .6em;padding-bottom:.2em;border-bottom:1px solid var(--line)}
code,pre{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2em 0;background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:.5em .7em}
nav a{margin-right:1.2em}a{color:#0969da}.meta{color:#59636e}
.verdict{display:inline-block;font-weight:600;padding:.25em .8em;border-radius:1em;color:#fff;margin:.4em 0}
.verdict.failed{background:var(--failed)}.verdict.passed{background:var(--passed)}
.chips span{display:inline-block;margin:.3em 1.4em .3em 0;font-size:1.05em}.chips b{font-size:1.4em;margin-right:.2em}
.c-failed{color:var(--failed)}.c-passed{color:var(--passed)}.c-known{color:var(--known)}.c-skipped,.c-not-implemented{color:var(--skipped)}
.bar{display:flex;height:12px;border-radius:6px;overflow:hidden;background:var(--scope);min-width:12em}
.bar span{display:block;height:100%}
.b-passed,.b-passing{background:var(--passed)}.b-failed,.b-failing{background:var(--failed)}.b-known,.b-known-failures{background:var(--known)}
.b-skipped{background:var(--skipped)}.b-not-implemented{background:repeating-linear-gradient(45deg,#a9b0ba 0 4px,#d5d9df 4px 8px)}.b-not-tested{background:#d5d9df}.b-not-in-scope{background:#eef0f3}
.totalbar{max-width:40em;margin:.3em 0 1em}
.legend span{margin-right:1em;font-size:12px;color:#59636e}.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:.3em;vertical-align:-1px}
.changes{display:grid;grid-template-columns:repeat(auto-fit,minmax(18em,1fr));gap:1em}
.changes>div{border:1px solid var(--line);border-radius:6px;padding:.6em .9em}.changes h3{font-size:1em;margin:.1em 0 .4em}
.changes ul{margin:.2em 0;padding-left:1.2em}.changes li ul{color:#59636e}
#filters{position:sticky;top:0;background:#fff;padding:.6em 0;border-bottom:1px solid var(--line);z-index:1;display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center}
#filters label{white-space:nowrap}#filters select,#filters input[type=search]{font:inherit;max-width:22em}#shown{color:#59636e}
.t{content-visibility:auto;contain-intrinsic-size:auto 2.3em;border:1px solid var(--line);border-left:4px solid var(--skipped);border-radius:4px;margin:.35em 0;background:#fff}
.t>summary{cursor:pointer;padding:.35em .6em;display:flex;gap:.6em;align-items:baseline;flex-wrap:wrap;list-style:none}
.t>summary::-webkit-details-marker{display:none}
.t .tn{flex:1 1 30em;overflow-wrap:anywhere}.t .file{color:#59636e;font-size:12px}.t .mark{font-weight:700;width:1em}
.t.s-failed{border-left-color:var(--failed)}.t.s-failed .mark{color:var(--failed)}
.t.s-known{border-left-color:var(--known)}.t.s-known .mark{color:var(--known)}
.t.s-passed{border-left-color:var(--passed)}.t.s-passed .mark{color:var(--passed)}
.t.s-not-implemented{border-left-color:var(--missing)}.t.s-skipped .mark,.t.s-not-implemented .mark{color:var(--skipped)}
.t .body{padding:.2em .9em .8em 1.9em;border-top:1px solid var(--line)}
.why{font-weight:600;overflow-wrap:anywhere}.note{color:var(--known)}
blockquote{margin:.4em 0;padding:.2em .8em;border-left:3px solid #d0d7de;color:#3d444d}
dl.ex{display:grid;grid-template-columns:max-content 1fr;gap:.1em .8em;margin:.4em 0}dl.ex dt{color:#59636e}dl.ex dd{margin:0}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:.8em}@media(max-width:60em){.exchange{grid-template-columns:1fr}}
h4{margin:.8em 0 .2em;font-size:.95em}h5{margin:.3em 0;font-size:.85em;color:#59636e;display:flex;gap:.6em;align-items:center}
button.copy{font:12px system-ui,sans-serif;padding:0 .6em;cursor:pointer}
.tag>summary{cursor:pointer;display:grid;grid-template-columns:14em minmax(12em,1fr) 24em;gap:1em;align-items:center;padding:.25em 0}
.tag>summary>span:first-child::before{content:'▸ ';color:#59636e}.tag[open]>summary>span:first-child::before{content:'▾ '}
.tag table{margin:.3em 0 .8em 1em}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
td.num{text-align:right}tr.failed .name{color:var(--failed)}tr.passed .name{color:var(--passed)}tr.known .name{color:var(--known)}tr.skipped .name{color:var(--skipped)}
details.more{margin:.6em 0}details.more>summary{cursor:pointer;font-weight:600}`;

/**
 * Filters the test list by state, operation (any the test counts for), rule and words of the name
 * (data attributes and the name of each entry, read as text: nothing of the run is ever parsed as HTML here),
 * counts what is shown, and lets an operation named in the changes or the progress, or a rule of
 * the matrix, filter the list, and a curl be copied.
 */
export const SCRIPT = `(()=>{
const list=[...document.querySelectorAll('#list .t')];
const names=list.map((t)=>t.querySelector('.tn').textContent.toLowerCase());
const boxes=[...document.querySelectorAll('#filters input[name=state]')];
const op=document.getElementById('f-op'),rule=document.getElementById('f-rule'),words=document.getElementById('f-text'),shown=document.getElementById('shown');
function apply(){
  const states=new Set(boxes.filter((b)=>b.checked).map((b)=>b.value));
  const q=words.value.trim().toLowerCase();
  let n=0;
  list.forEach((t,i)=>{
    const ok=states.has(t.dataset.state)&&(!op.value||t.dataset.ops.split('|').includes(op.value))&&(!rule.value||t.dataset.rules.split(' ').includes(rule.value))&&(!q||names[i].includes(q));
    if(t.hidden===ok)t.hidden=!ok;
    if(ok)n++;
  });
  shown.textContent=n+' of '+list.length+' tests shown';
}
for(const el of [...boxes,op,rule])el.addEventListener('change',apply);
words.addEventListener('input',apply);
for(const a of document.querySelectorAll('[data-filter-op],[data-filter-rule]'))a.addEventListener('click',(e)=>{
  e.preventDefault();
  op.value=a.dataset.filterOp??'';
  rule.value=a.dataset.filterRule??'';
  words.value='';
  for(const b of boxes)b.checked=true;
  apply();
  document.getElementById('tests').scrollIntoView();
});
for(const b of document.querySelectorAll('button.copy'))b.addEventListener('click',()=>{
  const text=b.closest('div').querySelector('pre').textContent;
  navigator.clipboard.writeText(text).then(()=>{b.textContent='copied';},()=>{b.textContent='select and copy';});
});
apply();
})();`;

/** The page's policy: its own style and, by hash, its own script; nothing loaded from anywhere. */
export const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'; img-src data:; base-uri 'none'; form-action 'none'`;
