// The page's running part: the turn deadline of the open phase, the lobby of the seats this
// browser holds, and once the battle is over its after-action report and its replay.
//
// Seats are remembered in localStorage ("battleline.seats": [{game, side, token, url}]) when the
// page joins one; the lobby asks POST /api/lobby about them. Nothing here knows a rule: the
// report's figures and the replay's events come from the server.

import { fetchPaced } from "./fetching.js";

const SEATS_KEY = "battleline.seats";
const CLOCK_REFRESH_MS = 60000;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

/** Fetch JSON: `{ok, status, body}`, with status 0 when the server cannot be reached. */
export async function getJson(url, options) {
  try {
    const response = await fetchPaced(url, options);
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    return { ok: response.ok, status: response.status, body };
  } catch (_) {
    return { ok: false, status: 0, body: { detail: "the server cannot be reached" } };
  }
}

/** The seats this browser remembers. */
export function heldSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS_KEY) || "[]");
    return Array.isArray(seats) ? seats : [];
  } catch (_) {
    return [];
  }
}

/** Remember a seat (the same game and credential once). */
export function rememberSeat(seat) {
  const seats = heldSeats().filter((s) => !(s.game === seat.game && s.token === seat.token));
  seats.unshift(seat);
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats.slice(0, 50)));
}

function forgetSeat(seat) {
  const seats = heldSeats().filter((s) => !(s.game === seat.game && s.token === seat.token));
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

/** "1 h 02 min", "4 min 05 s". */
export function timeLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) return `${h} h ${String(m).padStart(2, "0")} min`;
  return `${m} min ${String(sec).padStart(2, "0")} s`;
}

/** A ticking deadline line for a game's clock into `box` (returns a stop function);
 * `onClock(clock)` sees each clock the server sends. */
export function showClock(box, game, onClock = () => {}) {
  let left = null;
  let label = "";
  let stopped = false;
  const render = () => {
    if (left === null) {
      box.textContent = label;
      return;
    }
    box.textContent =
      left > 0 ? `${label}: ${timeLeft(left)} left` : `${label}: the deadline has passed`;
    box.classList.toggle("running-overdue", left <= 0);
  };
  let asked = 0; // the number of the latest read of the clock
  const load = async () => {
    const mine = ++asked;
    const got = await getJson(`/api/games/${encodeURIComponent(game)}/clock`);
    if (mine !== asked) return; // a newer read was sent meanwhile (a phase change, the timer)
    if (!got.ok || !got.body) return;
    const c = got.body;
    onClock(c);
    if (c.seconds_left === null) {
      left = null;
      label = c.deadline_minutes ? "" : "No deadline for this game";
    } else {
      left = c.seconds_left;
      label = `Deadline for turn ${c.turn}, ${c.phase} phase (${c.deadline_minutes} min a phase)`;
    }
    render();
  };
  const tick = setInterval(() => {
    if (left !== null) left -= 1;
    render();
  }, 1000);
  const again = setInterval(load, CLOCK_REFRESH_MS);
  load();
  return {
    reload: load,
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(tick);
      clearInterval(again);
    },
  };
}

function cell(row, text, header = false) {
  row.append(el(header ? "th" : "td", { text: String(text) }));
}

function figure(value, lacking) {
  if (lacking) return "—";
  return value === null || value === undefined ? "—" : value;
}

/** The after-action report into `box`. */
export function renderAar(box, report) {
  box.replaceChildren();
  box.append(el("h3", { text: "After-action report" }));
  box.append(el("p", { class: "running-verdict", text: report.verdict || "" }));
  const sides = el("table", { class: "running-sides" });
  const head = el("tr");
  for (const h of ["side", "ships", "ships lost", "victory points"]) cell(head, h, true);
  sides.append(el("thead", {}, head));
  const body = el("tbody");
  for (const [side, s] of Object.entries(report.sides)) {
    const tr = el("tr");
    cell(tr, side);
    cell(tr, s.ships);
    cell(tr, s.ships_lost);
    cell(tr, s.points === null ? "—" : s.points);
    body.append(tr);
  }
  sides.append(body);
  box.append(el("div", { class: "running-scroll" }, sides));

  const lacks = report.lacks || {};
  const ships = el("table", { class: "running-ships" });
  const sh = el("tr");
  const cols = [
    "ship",
    "side",
    "fate",
    "salvos",
    report.rounds_are || "rounds fired",
    "hits given",
    "hits taken",
    "accuracy",
    "points",
  ];
  for (const h of cols) cell(sh, h, true);
  ships.append(el("thead", {}, sh));
  const sb = el("tbody");
  for (const s of report.ships) {
    const tr = el("tr");
    tr.dataset.ship = s.name;
    cell(tr, s.name);
    cell(tr, s.side);
    cell(tr, s.fate);
    cell(tr, s.salvos);
    cell(tr, s.rounds);
    cell(tr, s.hits_given);
    cell(tr, s.hits_taken);
    cell(tr, s.accuracy === null ? "—" : `${Math.round(s.accuracy * 100)}%`);
    cell(tr, figure(s.points_given, !report.points_by_ship));
    sb.append(tr);
  }
  ships.append(sb);
  box.append(el("div", { class: "running-scroll" }, ships));
  const notes = [
    ...Object.values(lacks),
    ...Object.entries(report.notes || {}).map(([k, v]) => `${k.replace("_", " ")}: ${v}`),
  ];
  if (!report.points_by_ship) notes.push("This ruleset gives the points by side only.");
  if (notes.length) {
    const ul = el("ul", { class: "running-notes" });
    for (const n of notes) ul.append(el("li", { text: n }));
    box.append(ul);
  }
}

/** The replay viewer of a finished game into `box`. */
export async function mountReplay(box, game) {
  box.replaceChildren();
  box.append(el("h3", { text: "Replay" }));
  const first = await getJson(`/api/games/${encodeURIComponent(game)}/replay`);
  if (!first.ok) {
    box.append(el("p", { text: (first.body && first.body.detail) || "no replay" }));
    return;
  }
  const steps = first.body.steps;
  const last = steps.length - 1;
  const where = el("p", { class: "running-where", "aria-live": "polite" });
  const bar = el("div", { class: "running-controls", role: "group", "aria-label": "replay" });
  const buttons = {};
  for (const [key, text] of [
    ["first", "⏮ First"],
    ["prev", "◀ Previous"],
    ["next", "Next ▶"],
    ["last", "Last ⏭"],
  ]) {
    buttons[key] = el("button", { type: "button", class: `running-${key}`, text });
    bar.append(buttons[key]);
  }
  const sliderId = `running-slider-${game}`;
  const slider = el("input", {
    type: "range",
    min: "0",
    max: String(last),
    value: "0",
    id: sliderId,
    class: "running-slider",
  });
  const sliderLabel = el("label", { for: sliderId, text: "Step " });
  const picture = el("img", { class: "running-picture", alt: "the table at this step" });
  const events = el("ol", { class: "running-events" });
  box.append(where, bar, el("div", { class: "running-slide" }, sliderLabel, slider), picture, events);
  let at = 0;
  let asked = 0;
  const go = async (step) => {
    at = Math.max(0, Math.min(last, step));
    slider.value = String(at);
    const [turn, phase] = steps[at];
    where.textContent =
      phase === "end"
        ? `Step ${at + 1} of ${steps.length}: the end, turn ${turn}`
        : `Step ${at + 1} of ${steps.length}: turn ${turn}, ${phase} phase`;
    const focused = document.activeElement;
    buttons.first.disabled = buttons.prev.disabled = at === 0;
    buttons.next.disabled = buttons.last.disabled = at === last;
    if (focused instanceof HTMLButtonElement && focused.disabled) slider.focus(); // keep the keys
    const mine = ++asked;
    const got = await getJson(`/api/games/${encodeURIComponent(game)}/replay?step=${at}`);
    if (mine !== asked || !got.ok) return;
    picture.src = got.body.picture;
    events.replaceChildren();
    for (const e of got.body.events) {
      if (e.kind === "roll") continue;
      events.append(el("li", { text: e.text }));
    }
    if (!events.children.length) events.append(el("li", { text: "(nothing happened)" }));
  };
  buttons.first.addEventListener("click", () => go(0));
  buttons.prev.addEventListener("click", () => go(at - 1));
  buttons.next.addEventListener("click", () => go(at + 1));
  buttons.last.addEventListener("click", () => go(last));
  slider.addEventListener("input", () => go(Number(slider.value)));
  box.addEventListener("keydown", (ev) => {
    if (ev.target === slider) return; // the slider moves itself with the arrow keys
    const keys = { Home: 0, End: last, ArrowLeft: at - 1, ArrowRight: at + 1 };
    if (ev.key in keys) {
      ev.preventDefault();
      go(keys[ev.key]);
    }
  });
  await go(0);
}

/** After the battle: the report and the replay into `box` (once). */
export async function showAfter(box, game) {
  if (box.dataset.shown === game) return;
  box.dataset.shown = game;
  const report = el("div", { class: "running-aar" });
  const replay = el("div", { class: "running-replay", tabindex: "-1" });
  box.append(report, replay);
  const got = await getJson(`/api/games/${encodeURIComponent(game)}/aar`);
  if (got.ok) renderAar(report, got.body);
  else report.textContent = (got.body && got.body.detail) || "no report";
  await mountReplay(replay, game);
}

async function showLobby(box) {
  const seats = heldSeats();
  box.replaceChildren(el("h2", { text: "Your games" }));
  if (!seats.length) {
    box.append(el("p", { text: "No seats yet: open an invite link, or join with a token." }));
    box.hidden = false;
    return;
  }
  const got = await getJson("/api/lobby", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seats: seats.map((s) => ({ game: s.game, token: s.token })) }),
  });
  if (!got.ok) {
    box.append(el("p", { class: "running-problem", text: (got.body && got.body.detail) || "" }));
    box.hidden = false;
    return;
  }
  const list = el("ul", { class: "running-lobby-list" });
  got.body.seats.forEach((entry, i) => {
    const seat = seats[i];
    const li = el("li", { class: "running-seat" });
    li.dataset.game = seat.game;
    const url = seat.url || `#game=${encodeURIComponent(seat.game)}&token=${encodeURIComponent(seat.token)}`;
    if (entry.ok) {
      const who = entry.role === "umpire" ? "umpire" : entry.side;
      const link = el("a", { href: url, text: `${entry.title} — ${who}` });
      li.append(link);
      let state;
      if (entry.finished) state = `over: ${entry.result}`;
      else state = `turn ${entry.turn}, ${entry.phase} phase`;
      li.append(el("span", { class: "running-state", text: ` ${state}` }));
      li.append(el("small", { class: "running-game", text: ` (game ${seat.game})` }));
      if (entry.must_move) li.append(el("strong", { class: "running-move", text: " your move" }));
      if (entry.computer) li.append(el("span", { text: " (the computer plays it)" }));
    } else {
      li.append(el("span", { text: `${seat.game}${seat.side ? " — " + seat.side : ""}: ` }));
      li.append(el("span", { class: "running-problem", text: entry.problem }));
    }
    const forget = el("button", { type: "button", class: "running-forget", text: "Forget" });
    forget.setAttribute("aria-label", `forget ${seat.game} ${seat.side || ""}`.trim());
    forget.addEventListener("click", () => {
      forgetSeat(seat);
      showLobby(box);
    });
    li.append(" ", forget);
    list.append(li);
  });
  box.append(list);
  box.hidden = false;
}

/** Hook this part into the page's shared `app` (see main.js). */
export function mount(app) {
  const part = app.$("running-part");
  const lobby = app.$("running-lobby");
  const clockLine = el("p", { class: "running-clock", "aria-live": "polite" });
  const handed = el("p", { class: "running-handed", hidden: "" });
  const after = el("div", { class: "running-after" });
  if (part) part.append(clockLine, handed, after);
  const onClock = (c) => {
    const side = app.latest ? app.latest.side : "";
    const computer = (c.computer_sides || []).includes(side);
    handed.hidden = !computer;
    handed.textContent = computer
      ? `The umpire has handed ${side} to the computer: it gives your orders until the umpire gives the side back.`
      : "";
  };
  let clock = null;

  if (lobby && !new URLSearchParams(location.hash.slice(1)).get("game")) showLobby(lobby);

  app.on("joined", (seat) => {
    if (lobby) lobby.hidden = true;
    const side = app.latest ? app.latest.side : "";
    rememberSeat({
      game: seat.game,
      side,
      token: seat.token,
      url: `${location.origin}/#game=${encodeURIComponent(seat.game)}&token=${encodeURIComponent(seat.token)}`,
    });
    if (part) part.hidden = false;
    if (clock) clock.stop();
    clock = app.latest && app.latest.result !== null ? null : showClock(clockLine, seat.game, onClock);
  });
  app.on("phase", ({ result }) => {
    if (clock) clock.reload();
    if (result !== null && result !== undefined && part) {
      if (clock) clock.stop();
      clockLine.textContent = "";
      showAfter(after, app.seat.game);
    }
  });
}
