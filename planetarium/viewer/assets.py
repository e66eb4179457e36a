"""The viewer's stylesheet and script, written as files next to the pages (no CDN, no network).

Pages carry no inline script, no inline style and no event-handler attribute, and their content
security policy forbids all three (``script-src 'self'``, no ``'unsafe-inline'``): a slip in
escaping model output could add markup, never code.  The script only reads ``data-``
attributes and sets ``hidden`` and ``textContent``: it never writes markup either.
"""

from __future__ import annotations

#: The files the pages link, by name (written into the viewer's folder).
STYLESHEET, SCRIPT = "viewer.css", "viewer.js"

#: Pages load nothing from anywhere but the viewer's own two files; images are inline SVG.
CONTENT_SECURITY_POLICY = ("default-src 'none'; style-src 'self'; script-src 'self'; "
                           "img-src data:; base-uri 'none'; form-action 'none'")

#: What ``eval view --serve`` adds to every reply: the policy again as a header (with what only
#: a header can say: no framing), and no MIME sniffing, referrers or cross-origin use.
SERVE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY + "; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}

CSS = """
:root { --ink: #263238; --muted: #607d8b; --line: #cfd8dc; --missing: #c62828; --extra: #1565c0; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--ink); margin: 0 24px 40px; }
h1 { font-size: 20px; margin: 16px 0 6px; } h2 { font-size: 16px; margin: 18px 0 6px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
a { color: #1565c0; }
.muted { color: var(--muted); }
form.filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin: 10px 0; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
form.filters input, form.filters select { font: inherit; padding: 3px 6px; min-width: 9em; }
form.filters input[type=search] { min-width: 18em; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eceff1; position: sticky; top: 0; }
tr[hidden] { display: none; }
.status { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; white-space: nowrap; }
.status-correct { background: #c8e6c9; } .status-failed-last { background: #ffe0b2; }
.status-failed-middle { background: #ffccbc; } .status-failed-first { background: #ffcdd2; }
.status-undecided { background: #e1bee7; } .status-none { background: #eceff1; }
.cat { display: inline-block; margin: 1px 2px; padding: 0 5px; border: 1px solid var(--line);
       border-radius: 6px; font-size: 12px; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 6px 0; }
dl.meta dt { color: var(--muted); }
p.text { white-space: pre-wrap; max-width: 70em; background: #f5f5f5; padding: 8px 10px; }
.turn b { font-size: 12px; color: var(--muted); }
.runs { display: grid; gap: 24px; grid-auto-flow: column; grid-auto-columns: minmax(0, 1fr); }
.run { border-top: 3px solid var(--line); }
pre { background: #f5f5f5; padding: 8px; overflow: auto; max-height: 28em; font-size: 12px;
      white-space: pre-wrap; word-break: break-word; }
.scenes { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 10px; }
figure { margin: 0; border: 1px solid var(--line); padding: 6px; overflow: auto; }
figcaption { font-size: 12px; color: var(--muted); margin-bottom: 4px; }
svg.scene { max-width: 100%; height: auto; }
ul.facts { margin: 4px 0; padding-left: 18px; font-family: monospace; font-size: 12px; }
li.missing, span.missing { color: var(--missing); } li.extra, span.extra { color: var(--extra); }
.legend { display: flex; gap: 16px; font-size: 12px; align-items: center; margin: 6px 0; }
.legend svg { vertical-align: middle; }
table.grid { width: 100%; table-layout: fixed; }
.grid td, .grid th { font-size: 12px; overflow-wrap: anywhere; }
.grid th:first-child, .grid td:first-child { width: 7.5em; overflow-wrap: normal; }
.grid .detail { color: var(--muted); }
.note { color: var(--muted); font-style: italic; }
"""

JS = """
(function () {
  "use strict";
  var rows = Array.prototype.slice.call(document.querySelectorAll("#items tbody tr"));
  var text = document.getElementById("filter-text");
  var run = document.getElementById("filter-run");
  var status = document.getElementById("filter-status");
  var category = document.getElementById("filter-error-category");  // absent: none
  var fields = Array.prototype.slice.call(document.querySelectorAll("select[data-field]"));
  var count = document.getElementById("count");
  var nRuns = Number(document.body.getAttribute("data-runs"));

  function runMatches(row, index) {
    var got = row.getAttribute("data-status-" + index);
    if (got === null) { return false; }
    if (status.value && got !== status.value) { return false; }
    if (category && category.value) {
      var cats = (row.getAttribute("data-error-category-" + index) || "").split("|");
      if (cats.indexOf(category.value) < 0) { return false; }
    }
    return true;
  }

  function matches(row) {
    var words = text.value.trim().toLowerCase();
    if (words && row.getAttribute("data-search").indexOf(words) < 0) { return false; }
    for (var i = 0; i < fields.length; i++) {
      var want = fields[i].value;
      if (want && row.getAttribute("data-" + fields[i].getAttribute("data-field")) !== want) {
        return false;
      }
    }
    if (run.value !== "") { return runMatches(row, run.value); }
    for (var r = 0; r < nRuns; r++) { if (runMatches(row, r)) { return true; } }
    return false;
  }

  function update() {
    var shown = 0;
    rows.forEach(function (row) {
      var ok = matches(row);
      row.hidden = !ok;
      if (ok) { shown++; }
    });
    count.textContent = shown + " of " + rows.length + " items shown";
  }

  [text, run, status].concat(category ? [category] : [], fields).forEach(function (el) {
    el.addEventListener("input", update);
    el.addEventListener("change", update);
  });
  update();
})();
"""
