"""The page of the interactive HTML guide (see :func:`strategytree.export.to_html`).

Self-contained: inline style and script, no fonts, images or links from the
network.  The tree arrives as flat arrays in a JSON script element; the
script walks them with index arithmetic (a node's children are ``i + 1``,
then ``end`` of each child), so it builds nothing recursive and opens a
32,768-secret strategy at once.  ``{{TITLE}}`` and ``{{DATA}}`` are filled in.
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}} - strategytree guide</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 46em;
         padding: 0 1em; color: #222; background: #fafafa; }
  h1 { font-size: 1.2em; margin: 0 0 .2em; }
  .sub { color: #666; margin: 0 0 1em; }
  .card { background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 1em 1.2em;
          margin-bottom: 1em; }
  .step { font-size: .95em; color: #555; }
  .code { display: inline-flex; gap: .25em; vertical-align: middle; }
  .peg { display: inline-block; width: 1.9em; height: 1.9em; line-height: 1.9em;
         border-radius: 50%; text-align: center; font-weight: bold; color: #fff;
         text-shadow: 0 0 2px #000; border: 1px solid #0004; }
  .big .peg { width: 2.6em; height: 2.6em; line-height: 2.6em; font-size: 1.15em; }
  .replies { display: flex; flex-wrap: wrap; gap: .5em; margin-top: .8em; }
  button { font: inherit; cursor: pointer; border: 1px solid #bbb; border-radius: 6px;
           background: #fff; padding: .45em .7em; }
  button:hover { background: #eef4ff; border-color: #69c; }
  button.win { background: #e4f7df; border-color: #6b6; }
  .keys { font-family: monospace; letter-spacing: .05em; }
  .n { color: #777; font-size: .85em; }
  ol#path { margin: .3em 0 0; padding-left: 1.6em; }
  ol#path li { margin: .15em 0; }
  #result { font-size: 1.15em; font-weight: bold; color: #276b1c; }
  .bad { color: #a22; }
  .tools { display: flex; gap: .5em; }
</style>
</head>
<body>
<h1 id="title"></h1>
<p class="sub" id="sub"></p>
<div class="card">
  <div class="step" id="step"></div>
  <div class="big" id="guess"></div>
  <div class="n" id="left"></div>
  <div id="ask" class="step" style="margin-top:.8em">Which reply did you get?</div>
  <div class="replies" id="replies"></div>
  <div id="result"></div>
</div>
<div class="card">
  <div class="tools">
    <button id="back" type="button">&#8592; Back</button>
    <button id="restart" type="button">Restart</button>
  </div>
  <div class="step" style="margin-top:.6em">Path so far:</div>
  <ol id="path"></ol>
</div>
<script id="data" type="application/json">{{DATA}}</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const P = D.pegs, WIN = D.winReply, LABELS = D.labels || {};
const HUES = [0, 210, 120, 50, 280, 25, 180, 330, 90, 240, 160, 300, 15, 195, 70, 260,
              140, 345, 100, 225, 40, 310, 170, 5, 130, 270];
let stack = [0];      // node indices from the top of the guide to the current node
let solved = false;   // the last reply was the win

function children(i) {  // i + 1, then the end of each child: no recursion
  const out = [];
  for (let c = i + 1; c < D.end[i]; c = D.end[c]) out.push(c);
  return out;
}
function replyText(r) { return String(Math.floor(r / 10)) + String(r % 10); }
function keyPegs(r) {
  const b = Math.floor(r / 10), w = r % 10;
  if (LABELS[replyText(r)] !== undefined) return LABELS[replyText(r)];
  if (b + w > P) return "";
  return "\u25CF".repeat(b) + "\u25CB".repeat(w) + "\u00B7".repeat(P - b - w);
}
function codeEl(text) {
  const span = document.createElement("span");
  span.className = "code";
  for (const ch of text) {
    const peg = document.createElement("span");
    const k = ch >= "0" && ch <= "9" ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 65;
    peg.className = "peg";
    peg.textContent = ch;
    peg.style.background = "hsl(" + HUES[k % HUES.length] + "," + (k < 26 ? 65 : 30) + "%,"
      + (k >= 8 ? 38 : 48) + "%)";
    span.appendChild(peg);
  }
  return span;
}
function plural(n) { return n.toLocaleString("en") + (n === 1 ? " secret" : " secrets"); }
function button(reply, count, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.reply = replyText(reply);
  if (cls) b.className = cls;
  const keys = document.createElement("span");
  keys.className = "keys";
  keys.textContent = replyText(reply) + " " + keyPegs(reply);
  const n = document.createElement("div");
  n.className = "n";
  n.textContent = reply === WIN ? "that is the secret" : plural(count) + " left";
  b.append(keys, n);
  return b;
}

function render() {
  const t0 = performance.now();
  const i = stack[stack.length - 1];
  const done = D.prefix.length + stack.length;   // guesses made, counting this one
  const code = D.codes[D.guess[i]];
  document.getElementById("step").textContent = "Guess " + done + ":";
  const g = document.getElementById("guess");
  g.replaceChildren(codeEl(code));
  const left = document.getElementById("left");
  left.textContent = D.count[i] ? plural(D.count[i]) + " still possible" : "no secret comes here";
  const box = document.getElementById("replies");
  box.replaceChildren();
  const result = document.getElementById("result");
  result.textContent = "";
  result.removeAttribute("data-guesses");
  document.getElementById("ask").style.display = solved ? "none" : "";
  if (solved) {
    result.textContent = "Solved: the secret is " + code + ", found with " + done
      + (done === 1 ? " guess." : " guesses.");
    result.dataset.guesses = String(done);
  } else {
    if (D.win[i]) box.appendChild(button(WIN, 1, "win"));
    for (const c of children(i)) box.appendChild(button(D.reply[c], D.count[c], ""));
    if (!box.children.length) {
      result.innerHTML = '<span class="bad">The strategy ends here without a win.</span>';
    }
  }
  const path = document.getElementById("path");
  path.replaceChildren();
  const steps = D.prefix.map(s => [s[0], s[1]]);
  for (let k = 1; k < stack.length; k++) {
    steps.push([D.codes[D.guess[stack[k - 1]]], replyText(D.reply[stack[k]])]);
  }
  if (solved) steps.push([code, replyText(WIN)]);
  for (const [guess, reply] of steps) {
    const li = document.createElement("li");
    li.append(codeEl(guess), " ", Object.assign(document.createElement("span"),
      {className: "keys", textContent: reply + " " + keyPegs(Number(reply))}));
    path.appendChild(li);
  }
  document.getElementById("back").disabled = stack.length === 1 && !solved;
  document.body.dataset.renderMs = (performance.now() - t0).toFixed(2);
}

document.getElementById("replies").addEventListener("click", ev => {
  const b = ev.target.closest("button");
  if (!b) return;
  const r = Number(b.dataset.reply);
  const i = stack[stack.length - 1];
  if (r === WIN) { solved = true; render(); return; }
  const next = children(i).find(c => D.reply[c] === r);
  if (next !== undefined) { stack.push(next); render(); }
});
document.getElementById("back").addEventListener("click", () => {
  if (solved) solved = false; else if (stack.length > 1) stack.pop();
  render();
});
document.getElementById("restart").addEventListener("click", () => {
  stack = [0]; solved = false; render();
});
document.getElementById("title").textContent = D.title;
document.getElementById("sub").textContent = D.game + ": " + plural(D.count[0])
  + (D.prefix.length ? " after " + D.prefix.map(s => s[0] + " " + s[1]).join(", ") : "")
  + ". Play the guess shown, then click the reply you got.";
render();
document.body.dataset.readyMs = performance.now().toFixed(1);  // since navigation began
document.body.dataset.ready = "1";
</script>
</body>
</html>
"""
