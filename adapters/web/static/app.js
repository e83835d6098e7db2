// The web table's page: one WebSocket to the server, the table drawn from what it sends.
// Who the page is comes from the platform (Telegram's initData) or a signed link (a
// Discord player's, kept in the URL's fragment, never sent but in the socket's hello).
import { draw, toast, choose, showSettings, closeSettings, showKick, setStrings, gone }
  from "./render.js";

const tg = window.Telegram && window.Telegram.WebApp;
const fragment = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
const state = { me: null, table: null, hand: null, strings: {} };
let link = fragment.get("p");
let table = fragment.get("t") || query.get("t");
let socket = null;
let retry = 500;
let over = false;

if (tg) {
  tg.ready();
  if (tg.expand) tg.expand();
  theme();
  if (tg.onEvent) tg.onEvent("themeChanged", theme);
  const kept = sessionStorage.getItem("uno-link");
  if (!link && kept) link = kept;
}

function theme() {
  // Telegram's colours, and its light or dark
  const p = (tg && tg.themeParams) || {};
  const root = document.documentElement;
  if (tg && tg.colorScheme) root.dataset.theme = tg.colorScheme;
  const map = { bg_color: "--bg", text_color: "--fg", hint_color: "--hint",
    secondary_bg_color: "--card-bg", button_color: "--accent", button_text_color: "--accent-fg" };
  for (const [k, v] of Object.entries(map)) if (p[k]) root.style.setProperty(v, p[k]);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

export function press(intent) {
  send({ type: "press", intent });
}

function connect() {
  const url = new URL("ws", document.baseURI);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url);
  socket = ws;
  ws.addEventListener("open", () => {
    retry = 500;
    ws.send(JSON.stringify({
      type: "hello", table, link, initData: (tg && tg.initData) || null,
      lang: navigator.language || null,
    }));
  });
  ws.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  ws.addEventListener("close", () => {
    if (socket !== ws || over) return;
    document.body.dataset.connected = "false";
    gone(state.strings.reconnecting || "…", false);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      state.me = msg.me;
      state.strings = msg.strings;
      setStrings(msg.strings, msg.lang);
      table = msg.table || table;
      if (msg.token) keep(msg.token);
      document.body.dataset.connected = "true";
      gone(null);
      draw(state);
      break;
    case "token":
      keep(msg.token);
      break;
    case "table":
      if (state.table && msg.version < state.table.version) return;
      state.table = msg;
      if (state.hand && state.hand.version < msg.version && !state.hand.cards) state.hand = null;
      draw(state);
      break;
    case "hand":
      if (state.hand && msg.version < state.hand.version) return;
      state.hand = msg.cards ? msg : null;
      draw(state);
      break;
    case "settings":
      if (msg.closed) closeSettings(); else showSettings(msg, state.strings);
      break;
    case "kick":
      showKick(msg);
      break;
    case "notice":
      toast(msg.text, msg.kind);
      break;
    case "gone":
      over = true;
      gone(msg.text || state.strings.gone || msg.code, true);
      break;
  }
}

function keep(token) {
  link = token;
  if (tg) {
    sessionStorage.setItem("uno-link", token);
  } else {
    history.replaceState(null, "", "#p=" + token);
  }
}

document.addEventListener("uno-press", (e) => press(e.detail));
document.addEventListener("uno-choose", (e) => choose(e.detail, state.strings));
document.addEventListener("uno-redraw", () => draw(state));
document.body.dataset.connected = "false";
connect();
