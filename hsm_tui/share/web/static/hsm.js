// The browser seat of hsm serve: trade an invite for a session cookie, then run the
// player's Textual app in xterm.js over one WebSocket (/ws). Keys go up as binary
// messages (UTF-8, as a terminal sends them); {"resize": [cols, rows]} goes up as text;
// frames come down as binary; a {"bye": line} text message comes just before the
// server closes. The server decides every limit and refusal; this page only shows the
// line it sends.
"use strict";

// Read the invite before anything else, and take it out of the address bar and the
// history at once: the token is single use, and must not linger to be copied or synced.
const invite = (() => {
  const match = /^#invite=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
  if (window.location.hash) {
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  return match ? match[1] : null;
})();

// The keys a touch screen lacks, each as the bytes a terminal sends for it.
const TOUCH_KEYS = [
  ["Esc", "\x1b"],
  ["F1", "\x1bOP"],
  ["Tab", "\t"],
  ["Enter", "\r"],
  ["\u2190", "\x1b[D"],
  ["\u2191", "\x1b[A"],
  ["\u2193", "\x1b[B"],
  ["\u2192", "\x1b[C"],
  ["a", "a"],
  ["m", "m"],
  ["t", "t"],
  ["n", "n"],
  ["v", "v"],
  ["l", "l"],
];

// Why a close came without a farewell line, by WebSocket close code.
const CLOSED = {
  1006: "The connection to the table was lost (or the server refused it).",
  1009: "The connection sent more than the table accepts at once.",
};

const UNREACHABLE = "The table cannot be reached. Is the server still running?";
const RESIZE_DELAY_MS = 150; // a window dragged wider sends one size, not fifty
const MIN_COLS = 80; // the apps ask for a larger window below 80×24 (ui/too_small.py)
const MIN_FONT_PX = 7;
const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
let term = null;
let fit = null;
let socket = null;

function show(id, visible) {
  $(id).hidden = !visible;
}

function askForCode(why) {
  show("bye", false);
  show("join", true);
  $("join-error").textContent = why || "";
  $("code").focus();
}

function send(bytes) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(bytes);
}

// POST the link's token or the typed code; the server answers with the seat, or with
// the line to show (unknown, used or expired invite; too many tries; a bad request).
async function join(secret) {
  let reply;
  try {
    reply = await fetch("/join", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ secret }),
      credentials: "same-origin",
    });
  } catch {
    askForCode(UNREACHABLE);
    return;
  }
  if (reply.ok) {
    show("join", false);
    connect();
    return;
  }
  const body = await reply.json().catch(() => ({}));
  // A link opened twice: the invite is spent, but this browser may already be seated.
  resume(body.error || `The table refused (${reply.status}).`);
}

// Whether the session cookie still holds a seat: then sit down, else ask for a code.
async function resume(why) {
  const reply = await fetch("/whoami", { credentials: "same-origin" }).catch(() => null);
  if (reply && reply.ok) {
    show("bye", false);
    connect();
  } else {
    askForCode(reply ? why : UNREACHABLE);
  }
}

// The page's CSP blocks the <style> elements and style attributes of xterm.js's DOM
// renderer, so WebGL draws the cells (and their colours). Where WebGL is missing or its
// context is lost, the DOM renderer stays, in hsm.css's font and without colours, and a
// line says so.
function drawWithWebgl() {
  try {
    const webgl = new WebglAddon.WebglAddon();
    webgl.onContextLoss(() => {
      webgl.dispose();
      show("nocolour", true);
    });
    term.loadAddon(webgl);
  } catch {
    show("nocolour", true);
  }
}

// The font is hsm.css's (#screen), so that the DOM renderer's rows match what xterm.js
// measured; fit sizes the terminal to #screen whenever #screen changes size.
function makeTerminal() {
  const font = window.getComputedStyle($("screen"));
  const fontSize = parseFloat(font.fontSize);
  term = new Terminal({ fontFamily: font.fontFamily, fontSize, scrollback: 0, cursorBlink: false });
  fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open($("screen"));
  drawWithWebgl();
  fitTable(fontSize);
  term.onData((data) => send(encoder.encode(data)));
  term.onBinary((data) => send(Uint8Array.from(data, (c) => c.charCodeAt(0) & 0xff)));
  term.onResize(({ cols, rows }) => send(JSON.stringify({ resize: [cols, rows] })));
  let pending = null;
  new ResizeObserver(() => {
    clearTimeout(pending);
    pending = setTimeout(() => fitTable(fontSize), RESIZE_DELAY_MS);
  }).observe($("screen"));
}

// The terminal fills #screen in hsm.css's font; where that gives fewer than MIN_COLS
// columns (a phone held upright) the font shrinks by half pixels until they fit, down to
// MIN_FONT_PX, rather than the app asking for a larger window. (A cell's width is
// rounded to whole pixels, so it is measured at each size, not worked out.)
function fitTable(fontSize) {
  let px = fontSize;
  setFont(px);
  while (px > MIN_FONT_PX && (fit.proposeDimensions()?.cols ?? MIN_COLS) < MIN_COLS) {
    px -= 0.5;
    setFont(px);
  }
  fit.fit();
}

function setFont(px) {
  term.options.fontSize = px;
  $("screen").style.fontSize = `${px}px`; // the DOM renderer's rows, should WebGL fail
}

function connect() {
  if (!term) makeTerminal();
  term.reset();
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${window.location.host}/ws?cols=${term.cols}&rows=${term.rows}`;
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  let bye = null;
  ws.onmessage = (event) => {
    if (typeof event.data !== "string") {
      term.write(new Uint8Array(event.data));
      return;
    }
    try {
      bye = JSON.parse(event.data).bye || bye;
    } catch {
      // Not a message this page knows: the table goes on.
    }
  };
  ws.onclose = (event) => {
    if (socket === ws) socket = null;
    $("bye-line").textContent =
      bye || CLOSED[event.code] || `The table closed the connection (${event.code}).`;
    show("bye", true);
    $("rejoin").focus();
  };
  socket = ws;
  term.focus();
}

function makeKeys() {
  const row = $("keys");
  for (const [label, bytes] of TOUCH_KEYS) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    // Keep the focus (and a phone's keyboard) where it was: the key goes to the app.
    button.addEventListener("mousedown", (event) => event.preventDefault());
    button.addEventListener("click", () => send(encoder.encode(bytes)));
    row.append(button);
  }
  const toggle = $("keys-toggle");
  const set = (visible) => {
    row.hidden = !visible;
    toggle.setAttribute("aria-pressed", String(visible));
  };
  set(window.matchMedia("(pointer: coarse)").matches);
  toggle.addEventListener("click", () => set(row.hidden));
}

function start() {
  const plain = window.location.protocol === "http:";
  show("plain", plain && !LOCAL_HOSTS.includes(window.location.hostname));
  makeKeys();
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    join($("code").value.trim());
  });
  $("rejoin").addEventListener("click", () =>
    resume("Your seat's session has ended: ask the GM for a new invite."),
  );
  // A new invite opened in this tab changes only the fragment: start afresh with it.
  window.addEventListener("hashchange", () => {
    if (window.location.hash.startsWith("#invite=")) window.location.reload();
  });
  if (invite) {
    join(invite);
  } else {
    resume("");
  }
}

start();
