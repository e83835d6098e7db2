// Drawing the table from the frames: every text is set as text (names are people's own).
const $ = (id) => document.getElementById(id);
let strings = {};
let clockTimer = null;
let skew = 0;

export function setStrings(s, lang) {
  strings = s;
  document.documentElement.lang = (lang || "en").replace("_", "-");
  document.title = s.title || "UNO";
  $("hand-title").textContent = s.hand;
  $("lines-title").textContent = s.events;
  $("chooser-title").textContent = s.choose;
  $("chooser-cancel").textContent = s.cancel;
}

function fill(template, values) {
  return (template || "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

function el(tag, props = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v; else if (k === "data") Object.assign(e.dataset, v);
    else e[k] = v;
  }
  if (text !== null) e.textContent = text;
  return e;
}

function emit(name, detail) {
  document.dispatchEvent(new CustomEvent(name, { detail }));
}

function button(c) {
  const b = el("button", { type: "button", class: c.style || "secondary" },
    (c.icon ? c.icon + " " : "") + c.label);
  if (c.selected) b.classList.add("selected");
  if (c.disabled) b.disabled = true;
  b.dataset.intent = c.intent;
  b.addEventListener("click", () => emit("uno-press", c.intent));
  return b;
}

function rows(target, list, skip = new Set()) {
  target.replaceChildren();
  for (const row of list || []) {
    if (row.title) target.append(el("div", { class: "title" }, row.title));
    for (const c of row.controls) if (!skip.has(c.intent)) target.append(button(c));
  }
}

export function draw(state) {
  const t = state.table;
  if (!t) return;
  const me = state.me;
  const names = Object.fromEntries(t.seats.map((s) => [s.id, s.name]));
  document.body.dataset.status = t.status;
  document.body.dataset.version = String(t.version);
  // whose turn
  let turn = "";
  if (t.status === "lobby") turn = strings.lobby;
  else if (t.status !== "playing") turn = strings.over;
  else if (t.current && t.current === me) turn = strings.your_turn;
  else if (t.current) turn = fill(strings.turn_of, { player: names[t.current] || "?" });
  $("turn").textContent = turn;
  skew = t.now * 1000 - Date.now();
  tick(t.deadline);
  // seats
  const seats = $("seats");
  seats.replaceChildren();
  for (const s of t.seats) {
    const chip = el("div", { class: "seat", data: { id: s.id } });
    if (s.current) chip.classList.add("current");
    if (s.id === me) chip.classList.add("me");
    chip.append(el("span", { class: "name" }, (s.bot ? "🤖 " : "") + s.name));
    if (s.cards !== undefined) chip.append(el("span", { class: "count" }, "🂠 " + s.cards));
    if (s.uno) chip.append(el("span", { class: "badge uno" }, strings.uno_mark));
    if (s.exposed) chip.append(el("span", { class: "badge exposed" }, "!"));
    if (s.host) chip.append(el("span", { class: "badge" }, strings.host));
    if (s.score) chip.append(el("span", { class: "badge" }, String(s.score)));
    seats.append(chip);
  }
  // the piles
  const playing = t.top !== undefined;
  $("centre").hidden = !playing;
  if (playing) {
    const top = $("top");
    top.querySelector("img").src = t.top.img;
    top.querySelector("img").alt = t.top.text;
    top.dataset.color = t.color || "";
    $("top-text").textContent = t.colorName && t.top.code.startsWith("W")
      ? t.top.text + " → " + t.colorName : t.top.text;
    $("pile-count").textContent = fill(strings.cards_left, { n: t.pile });
    $("direction").textContent = t.direction > 0 ? "↻ " + strings.direction_cw
      : "↺ " + strings.direction_ccw;
    $("pending").textContent = t.pending ? fill(strings.pending, { n: t.pending }) : "";
  }
  // the hand, and the moves (table controls that the hand offers too are shown once)
  const hand = state.hand;
  const seated = !!hand;
  $("hand-area").hidden = !seated;
  const moves = new Set();
  if (seated) {
    drawHand(hand);
    rows($("moves"), hand.moves);
    for (const row of hand.moves) for (const c of row.controls) moves.add(c.intent);
  }
  const controls = me ? t.controls : [];
  rows($("table-controls"), controls, moves);
  // the host's kick menu (the lobby, between rounds): the frame is everyone's, the button theirs
  const host = t.seats.some((s) => s.id === me && s.host);
  if (me && host && t.kick) {
    $("table-controls").append(button({ intent: t.kick, label: strings.kick, style: "danger",
      icon: "🚪" }));
  }
  const banner = $("banner");
  if (!me) { banner.hidden = false; banner.textContent = strings.watching; }
  else if (t.status === "lobby") { banner.hidden = false; banner.textContent = t.text; }
  else banner.hidden = true;
  // scores, lines
  const scores = $("scores");
  scores.hidden = !t.scores;
  if (t.scores) scores.textContent = t.scores.join("\n");
  const lines = $("lines");
  lines.replaceChildren(...(t.lines || []).map((l) => el("li", {}, l)));
}

// Several cards at once (``multi_play``): a card that may go with others is picked (tapped
// again, put back); the cards that may still join the pick are lit, the rest dimmed; "Play the
// selection" sends the play of exactly those cards (a chooser when it has several forms: a
// colour, the UNO call). A card that only ever goes alone is played at once, as before.
let picked = [];
let pickedOf = null;

function codesOf(play) {
  return [play.card, ...(play.together || [])];
}

function counts(codes) {
  const n = {};
  for (const c of codes) n[c] = (n[c] || 0) + 1;
  return n;
}

function within(codes, play) {
  // whether the cards ``codes`` are all among the play's cards
  const have = counts(codesOf(play));
  for (const [c, k] of Object.entries(counts(codes))) if ((have[c] || 0) < k) return false;
  return true;
}

function exactly(codes, play) {
  return codesOf(play).length === codes.length && within(codes, play);
}

function drawHand(hand) {
  const box = $("hand");
  box.replaceChildren();
  if (pickedOf !== hand.version) { picked = []; pickedOf = hand.version; }
  const plays = {};
  for (const p of hand.plays) (plays[p.card] = plays[p.card] || []).push(p);
  const groups = hand.plays.filter((p) => p.together && p.together.length);
  const grouped = new Set(groups.flatMap(codesOf));
  const chosen = picked.map((i) => hand.cards[i].code);
  hand.cards.forEach((c, i) => {
    const mine = plays[c.code] || [];
    const b = el("button", { type: "button", class: "card", data: { code: c.code } });
    b.append(el("img", { src: c.img, alt: c.text }));
    b.title = c.text;
    const joins = grouped.has(c.code);
    if (picked.includes(i)) b.classList.add("picked");
    else if (picked.length && joins) {
      if (hand.plays.some((p) => within([...chosen, c.code], p))) b.classList.add("lit");
      else b.classList.add("off");
    } else if (picked.length) b.classList.add("off");
    else if (c.lit || joins) b.classList.add("lit");
    if (!mine.length && !joins) b.disabled = true;
    b.addEventListener("click", () => {
      if (joins) { pick(hand, i); return; }
      picked = [];
      if (mine.length === 1) emit("uno-press", mine[0].intent);
      else if (mine.length > 1) emit("uno-choose", mine);
      emit("uno-redraw");
    });
    box.append(b);
  });
  const bar = $("picked");
  bar.hidden = !picked.length;
  bar.replaceChildren();
  if (!picked.length) return;
  const forms = hand.plays.filter((p) => exactly(chosen, p));
  const play = el("button", { type: "button", class: "primary", id: "play-picked" },
    fill(strings.play_picked, { n: picked.length }));
  play.disabled = !forms.length;
  play.addEventListener("click", () => {
    picked = [];
    if (forms.length === 1) emit("uno-press", forms[0].intent);
    else emit("uno-choose", forms);
    emit("uno-redraw");
  });
  const clear = el("button", { type: "button", id: "clear-picked" }, strings.clear_picked);
  clear.addEventListener("click", () => { picked = []; emit("uno-redraw"); });
  bar.append(play, clear);
}

function pick(hand, i) {
  if (picked.includes(i)) picked = picked.filter((j) => j !== i);
  else {
    const codes = [...picked, i].map((j) => hand.cards[j].code);
    // a card that cannot join the pick starts a new one
    picked = hand.plays.some((p) => within(codes, p)) ? [...picked, i] : [i];
  }
  emit("uno-redraw");
}

export function choose(options, s) {
  const dialog = $("chooser");
  const box = $("choices");
  box.replaceChildren();
  for (const o of options) {
    const b = button(o);
    if (o.color && !o.together) b.classList.add("color-" + o.color);
    b.addEventListener("click", () => dialog.close());
    box.append(b);
  }
  $("chooser-cancel").onclick = () => dialog.close();
  if (!dialog.open) dialog.showModal();
}

export function showSettings(frame, s) {
  const dialog = $("settings");
  $("settings-summary").textContent = frame.summary;
  const box = $("settings-rows");
  box.replaceChildren();
  for (const row of frame.rows) {
    const r = el("div", { class: "controls" });
    if (row.title) r.append(el("div", { class: "title" }, row.title));
    for (const c of row.controls) r.append(button(c));
    box.append(r);
  }
  if (!dialog.open) dialog.showModal();
}

export function showKick(frame) {
  const dialog = $("kicker");
  const box = $("kick-rows");
  box.replaceChildren();
  for (const row of frame.rows) {
    if (row.title) box.append(el("div", { class: "title" }, row.title));
    for (const c of row.controls) {
      const b = button(c);
      b.addEventListener("click", () => dialog.close());
      box.append(b);
    }
  }
  $("kick-cancel").textContent = strings.cancel;
  $("kick-cancel").onclick = () => dialog.close();
  if (!dialog.open) dialog.showModal();
}

export function closeSettings() {
  const dialog = $("settings");
  if (dialog.open) dialog.close();
}

export function toast(text, kind) {
  const t = el("div", { class: "toast " + (kind || "") }, text);
  $("toasts").append(t);
  setTimeout(() => t.remove(), kind === "news" ? 6000 : 4000);
}

export function gone(text, final) {
  const banner = $("banner");
  if (text === null) { banner.hidden = true; return; }
  banner.hidden = false;
  banner.textContent = text;
  if (final) document.body.dataset.gone = "true";
}

function tick(deadline) {
  if (clockTimer) clearInterval(clockTimer);
  const clock = $("clock");
  const show = () => {
    if (!deadline) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round(deadline - (Date.now() + skew) / 1000));
    clock.textContent = "⏱ " + fill(strings.seconds, { n: left });
    clock.classList.toggle("low", left <= 10);
  };
  show();
  if (deadline) clockTimer = setInterval(show, 1000);
}
