/**
 * The playground's stylesheet, served as `/playground/playground.css`. Colours are chosen for WCAG
 * AA: body text at least 4.5:1 on every background it sits on (white, the cards, the highlight and
 * shading tints), bars and focus rings at least 3:1 against their surroundings.
 */
export const STYLE = String.raw`:root {
  --bg: #f4f5f7;
  --card: #ffffff;
  --text: #1b1f24;
  --muted: #4b5360;
  --line: #c9ced6;
  --accent: #1f4fbf;
  --accent-dark: #173c91;
  --focus: #b4530a;
  --ok: #1d6b35;
  --bad: #a3231b;
  --low: #2f6fa8;
  --medium: #8a6200;
  --high: #b84a0c;
  --severe: #a3231b;
  --objectionable-bg: #fde2df;
  --objectionable-line: #a3231b;
  --negative-bg: #fff0c2;
  --negative-line: #8a6200;
  --fallacy-bg: #e9e2fb;
  --fallacy-line: #5b3cb5;
  --coded-bg: #dff1f7;
  --coded-line: #0b5c78;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 16px;
  line-height: 1.5;
  color: var(--text);
  background: var(--bg);
}
* { box-sizing: border-box; }
body { margin: 0; }
.wrap { max-width: 1100px; margin: 0 auto; padding: 0 1rem; }
a { color: var(--accent); }
a:hover { color: var(--accent-dark); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; background: #eceef2; padding: 0 0.25em; border-radius: 3px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: var(--card); padding: 0.5rem 1rem; z-index: 10; }
.skip:focus { left: 1rem; }

.top { background: #14213d; color: #ffffff; padding: 1rem 0 0.75rem; margin-bottom: 1.25rem; }
.top-row { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: flex-end; gap: 0.5rem 2rem; }
.top h1 { margin: 0; font-size: 1.6rem; letter-spacing: -0.01em; }
.top .lede { margin: 0.2rem 0 0; color: #dbe3f4; }
.top nav { display: flex; gap: 1rem; }
.top nav a { color: #ffffff; }
.top :focus-visible { outline-color: #ffc266; }
.engine-line { margin: 0.6rem auto 0; font-size: 0.9rem; color: #dbe3f4; }

.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.25rem 1.1rem; margin-bottom: 1.25rem; box-shadow: 0 1px 2px rgba(20, 33, 61, 0.06); }
.card:focus { outline: none; }
.card h2 { margin: 0 0 0.4rem; font-size: 1.2rem; display: flex; align-items: center; gap: 0.5rem; }
.step { display: inline-grid; place-items: center; width: 1.6rem; height: 1.6rem; border-radius: 50%; background: var(--accent); color: #ffffff; font-size: 0.9rem; }
h3 { font-size: 1.05rem; margin: 0 0 0.5rem; }
h4 { font-size: 0.95rem; margin: 0.9rem 0 0.3rem; }
.hint { color: var(--muted); margin: 0 0 0.8rem; font-size: 0.92rem; }
.optional { color: var(--muted); font-weight: normal; font-size: 0.88em; }
.muted { color: var(--muted); }

.grid-2 { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1.25rem; }
.span-2 { grid-column: 1 / -1; }
.field { display: flex; flex-direction: column; gap: 0.25rem; margin-bottom: 0.8rem; min-width: 0; }
label { font-weight: 600; font-size: 0.95rem; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=number], select, textarea {
  font: inherit; color: var(--text); background: #ffffff; border: 1px solid #7b8391; border-radius: 6px; padding: 0.45rem 0.6rem; width: 100%; min-width: 0;
}
textarea { resize: vertical; }
#comment { min-height: 6rem; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 0.8rem; padding: 0.5rem 0.8rem 0.6rem; min-width: 0; }
legend { font-weight: 600; padding: 0 0.3rem; }
fieldset label { font-weight: normal; display: flex; align-items: center; gap: 0.45rem; padding: 0.15rem 0; }
fieldset.radios { display: flex; flex-wrap: wrap; gap: 0 1.5rem; }
fieldset.attrs { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1rem; }
fieldset.attrs legend { grid-column: 1 / -1; }
fieldset.attrs label { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85rem; }
input[type=checkbox], input[type=radio] { width: 1.1rem; height: 1.1rem; accent-color: var(--accent); flex: none; }
.inline { display: flex; gap: 0.5rem; align-items: center; }
.inline select { flex: 1; }
.wrap-row { flex-wrap: wrap; align-items: flex-end; }
.wrap-row .field { margin-bottom: 0; }
.actions { display: flex; flex-wrap: wrap; gap: 0.6rem; margin-top: 0.2rem; }

button { font: inherit; font-weight: 600; border-radius: 6px; padding: 0.5rem 1rem; border: 1px solid #5b6472; background: #ffffff; color: var(--text); cursor: pointer; min-height: 2.5rem; }
button:hover { background: #eef1f6; }
button.primary { background: var(--accent); border-color: var(--accent); color: #ffffff; }
button.primary:hover { background: var(--accent-dark); }
button:disabled { opacity: 0.6; cursor: progress; }

details > summary { cursor: pointer; font-weight: 600; color: var(--accent); padding: 0.3rem 0; }
details[open] > summary { margin-bottom: 0.5rem; }
.status { min-height: 1.5em; margin: 0.5rem 0 0; font-size: 0.95rem; }
.status.ok { color: var(--ok); }
.status.error { color: var(--bad); font-weight: 600; }
.status.busy { color: var(--muted); }
.notice { padding: 0.5rem 0.75rem; border-radius: 6px; }
.notice.error { background: #fde2df; color: #7a1a14; border: 1px solid #e3a19a; }
.context-about { color: var(--muted); font-size: 0.9rem; margin: 0 0 0.5rem; }

.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 0.8rem; margin: 0 0 1rem; padding: 0.6rem 0.8rem; background: #f1f4f9; border-radius: 8px; font-size: 0.92rem; }
.meta dt { font-weight: 600; color: var(--muted); }
.meta dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 0.5rem; border-radius: 999px; font-weight: 700; font-size: 0.85rem; color: #ffffff; background: var(--low); }
.badge.engine-local { background: #1d6b35; }
.badge.engine-llm { background: #5b3cb5; }
.badge.engine-cascade { background: #1f4fbf; }
.badge.engine-fallback { background: #a3231b; }

.block { border-top: 1px solid var(--line); padding-top: 0.9rem; margin-top: 0.9rem; min-width: 0; }
.grid-results { display: grid; grid-template-columns: 1fr 1fr; gap: 0 2rem; }
#perspective-section { grid-row: span 3; }

.annotated { font-size: 1.1rem; line-height: 2; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; padding: 0.6rem 0.8rem; border: 1px solid var(--line); border-radius: 8px; background: #ffffff; }
.legend { font-size: 0.88rem; color: var(--muted); margin: 0 0 0.5rem; line-height: 2; }
.key { padding: 0.05rem 0.35rem; border-radius: 3px; color: var(--text); }
.sentence { border-radius: 3px; padding: 0.1rem 0; }
.shade-0 { background: transparent; }
.shade-1 { background: #fbeeee; }
.shade-2 { background: #f8dede; }
.shade-3 { background: #f3c9c9; }
.shade-4 { background: #eeb5b5; }
mark.hl, .key.hl { position: relative; color: var(--text); border-radius: 3px; padding: 0.1rem 0.1rem; border-bottom: 3px solid; }
.hl-objectionable { background: var(--objectionable-bg); border-color: var(--objectionable-line); }
.hl-negative { background: var(--negative-bg); border-color: var(--negative-line); }
.hl-fallacy { background: var(--fallacy-bg); border-color: var(--fallacy-line); }
.hl-coded { background: var(--coded-bg); border-color: var(--coded-line); }
mark.hl-fallacy.hl-objectionable, mark.hl-fallacy.hl-negative { border-bottom-style: double; border-bottom-width: 4px; }
mark.hl { cursor: help; font-weight: 600; }
mark.hl .tip {
  display: none; position: absolute; left: 0; top: calc(100% + 6px); z-index: 5; width: max-content; max-width: min(22rem, 80vw);
  background: #1b1f24; color: #ffffff; font-size: 0.88rem; line-height: 1.4; padding: 0.5rem 0.65rem; border-radius: 6px; white-space: normal;
  box-shadow: 0 4px 12px rgba(0, 0, 0, 0.25);
}
mark.hl:hover .tip, mark.hl:focus .tip { display: block; }
mark.hl.tip-dismissed .tip { display: none; }
.tip-line { display: block; }
.tip-line + .tip-line { margin-top: 0.35rem; }
.tip em { color: #dbe3f4; }

.bars { list-style: none; margin: 0; padding: 0; }
.bar { display: grid; grid-template-columns: 9.5rem 1fr 3rem; align-items: center; gap: 0.6rem; margin: 0.35rem 0; }
.bar-name { font-size: 0.9rem; text-transform: capitalize; }
.bar-value { font-variant-numeric: tabular-nums; font-weight: 700; text-align: right; }
.track { position: relative; height: 1.1rem; background: #e6e9ee; border: 1px solid #7b8391; border-radius: 4px; overflow: hidden; }
.fill { height: 100%; }
.band-low { background: var(--low); }
.band-medium { background: var(--medium); }
.band-high { background: var(--high); }
.band-severe { background: var(--severe); }
.tick { position: absolute; top: 0; bottom: 0; width: 2px; margin-left: -1px; background: #1b1f24; opacity: 0.75; }
.bar.scale { margin-top: 0; }
.scale-track { position: relative; height: 1.1rem; font-size: 0.75rem; color: var(--muted); }
.scale-track span { position: absolute; transform: translateX(-50%); }
.correct { margin-top: 1rem; padding: 0.6rem 0.8rem 0.8rem; background: #f1f4f9; border-radius: 8px; }
.correct h4 { margin-top: 0; }
.correct .field input { width: 7rem; }

.overall { display: flex; align-items: baseline; gap: 0.3rem; margin: 0 0 0.5rem; }
.overall-value { font-size: 2.4rem; font-weight: 800; line-height: 1; }
.overall-of { color: var(--muted); font-weight: 600; }
.dots { display: inline-flex; gap: 0.3rem; margin-left: 0.8rem; }
.dot { width: 0.9rem; height: 0.9rem; border-radius: 50%; border: 2px solid var(--accent); }
.dot.on { background: var(--accent); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.8rem; margin: 0 0 0.5rem; }
.facts dt { font-weight: 600; color: var(--muted); }
.facts dd { margin: 0; }
.reason { margin: 0.2rem 0 0.6rem; color: var(--text); font-size: 0.95rem; }
.phrases ul { margin: 0; padding-left: 1.1rem; }
.phrases li { margin: 0.2rem 0; }
.phrases q { font-weight: 600; }
.explain { color: var(--muted); }
.rewrite { color: var(--ok); }
.verdict { display: inline-block; font-weight: 700; padding: 0.05rem 0.55rem; border-radius: 999px; margin-right: 0.3rem; }
.verdict.good { background: #dcefe2; color: #14532d; }
.verdict.bad { background: #fde2df; color: #7a1a14; }

.raw { margin-top: 1rem; border-top: 1px solid var(--line); padding-top: 0.6rem; }
.raw pre { margin: 0; max-height: 28rem; overflow: auto; background: #14213d; color: #e8edf7; padding: 0.8rem; border-radius: 8px; font-size: 0.82rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.foot { color: var(--muted); font-size: 0.85rem; padding-bottom: 2rem; }

@media (max-width: 760px) {
  .grid-2, .grid-results { grid-template-columns: 1fr; }
  #perspective-section { grid-row: auto; }
  .bar { grid-template-columns: 7rem 1fr 2.6rem; }
  .card { padding: 0.8rem 0.9rem; }
  .top h1 { font-size: 1.35rem; }
}
@media (prefers-reduced-motion: no-preference) { .fill { transition: width 0.3s ease; } }
`
