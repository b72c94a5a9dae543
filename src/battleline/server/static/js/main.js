// battleline web page, the shell: claim a seat or join one, read the side's view, submit sealed
// orders. The page holds no rules: the server checks every order and answers with the engine's
// message. An invite link (#game=ID&invite=I) is claimed once; the page then shows the seat's own
// link (#game=ID&token=T) in the address bar, to bookmark.
//
// The parts of the page (live push and chat, the table, the order forms, the ship logs, running a
// game) are modules with `mount(app)`; they share the `app` object below and its events:
//   "joined" (seat), "view" (the side's latest view: {view, events: new events}),
//   "phase" ({turn, phase}) when the open phase changes,
//   "unsent" ({path, orders}) when a submit could not reach the server (the live part queues it).
// Drafts: app.saveDraft(key, value) / app.loadDraft(key) keep a part's unsent input in
// localStorage, keyed by game, side, turn and phase (the order text is the draft "orders").
import * as live from "./live.js";
import * as table from "./table.js";
import * as forms from "./forms.js";
import * as shiplog from "./shiplog.js";
import * as running from "./running.js";
import { fetchPaced } from "./fetching.js";

const POLL_MS = 2000;
const seat = { game: "", token: "" };
let cursor = 0; // how many game events the page has asked for already
let shown = ""; // "turn/phase" now displayed
let help = {};
let timer = null;
const listeners = new Map();

const $ = (id) => document.getElementById(id);

/** What the page's modules share. */
export const app = {
  seat,
  latest: null, // the side's latest view
  $,
  api: (path, options) => api(path, options),
  say: (text, kind) => say(text, kind),
  refresh: () => poll(),
  /** Stop the fallback poll (the live channel pushes instead). */
  stopPolling() {
    if (timer) clearInterval(timer);
    timer = null;
    app.polling = false;
  },
  polling: true,
  saveDraft: (key, value) => saveDraft(key, value),
  loadDraft: (key) => loadDraft(key),
  on(name, fn) {
    if (!listeners.has(name)) listeners.set(name, []);
    listeners.get(name).push(fn);
  },
  emit(name, data) {
    for (const fn of listeners.get(name) || []) {
      try {
        fn(data);
      } catch (err) {
        console.error(`battleline: ${name} listener failed`, err);
      }
    }
  },
};

async function api(path, options = {}) {
  const headers = { "X-Battleline-Token": seat.token, ...(options.headers || {}) };
  const response = await fetchPaced(`/api/games/${encodeURIComponent(seat.game)}${path}`, {
    ...options,
    headers,
  });
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  return { response, body };
}

function draftKey(key) {
  const v = app.latest;
  if (!v || !seat.game) return null;
  return `battleline:draft:${seat.game}:${v.side}:${v.turn}:${v.phase}:${key}`;
}

function saveDraft(key, value) {
  const at = draftKey(key);
  try {
    if (at && value) localStorage.setItem(at, JSON.stringify(value));
    else if (at) localStorage.removeItem(at);
  } catch (_) {
    // storage full or refused: the draft lives on in the page only
  }
}

function loadDraft(key) {
  const at = draftKey(key);
  try {
    return at ? JSON.parse(localStorage.getItem(at) || "null") : null;
  } catch (_) {
    return null;
  }
}

function problem(body, response) {
  if (body && typeof body.detail === "string") return body.detail;
  if (body && Array.isArray(body.detail)) return body.detail.map((d) => d.msg).join("; ");
  return `the server answered ${response.status}`;
}

function say(text, kind) {
  const box = $("message");
  box.textContent = text;
  box.className = kind;
}

function summary(ship) {
  const log = ship.log;
  if (!log) return ship.sunk ? "sunk" : ship.crippled ? "crippled" : ""; // a DBA ship: no log
  const notes = [];
  if (log.sunk) notes.push("sunk");
  if (log.surrendered) notes.push("struck");
  if (log.sinking) notes.push("sinking");
  if (!ship.in_battle && !log.sunk && !log.surrendered) notes.push("out of the battle");
  const p = log.propulsion;
  if (p.damaged || p.destroyed) notes.push(`propulsion ${p.damaged} damaged, ${p.destroyed} gone`);
  const fires = log.fires_external + log.fires_internal;
  if (fires) notes.push(`${fires} fire${fires > 1 ? "s" : ""}`);
  for (const [name, c] of Object.entries(log.compartments)) {
    if (c.level) notes.push(`${name} flooding ${c.level}`);
  }
  for (const [key, pos] of Object.entries(log.positions)) {
    if (pos.destroyed) notes.push(`${key} destroyed`);
    else if (pos.slashes) notes.push(`${key} hit ×${pos.slashes}`);
  }
  const tubes = Object.entries(log.torpedoes_left).map(([k, n]) => `${k} ${n}`);
  if (tubes.length) notes.push(`torpedoes: ${tubes.join(", ")}`);
  return notes.join("; ") || "undamaged";
}

function showShips(own) {
  const rows = $("ship-rows");
  rows.replaceChildren();
  for (const ship of own) {
    const tr = document.createElement("tr");
    for (const text of [
      ship.name,
      ship.division,
      `${ship.speed_knots} kn`,
      summary(ship),
    ]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    rows.appendChild(tr);
  }
}

function showEvents(events) {
  const list = $("event-list");
  for (const e of events) {
    if (e.kind === "roll") continue; // dice are in the umpire's log; keep the page readable
    const li = document.createElement("li");
    li.textContent = `T${e.turn} ${e.phase}: ${e.text}`;
    list.prepend(li);
  }
}

function show(v) {
  $("side").textContent = v.side;
  $("turn").textContent = v.turn;
  $("phase").textContent = v.phase;
  $("order-kind").textContent = v.order_kind ? `(${v.order_kind})` : "";
  $("help").textContent = help[v.phase] || "One order per line.";
  const over = v.result !== null;
  $("result").hidden = !over;
  $("result").textContent = over ? `The battle is over: ${v.result}` : "";
  const mine = v.my_orders !== null;
  const others = v.waiting_for.filter((s) => s !== v.side);
  $("waiting").hidden = over || !mine || others.length === 0;
  $("sealed").hidden = !mine;
  $("my-orders").textContent = mine ? v.my_orders.join("\n") || "(no orders)" : "";
  $("submit-button").disabled = over;
  showShips(v.own);
  showEvents(v.events);
  app.latest = v;
  app.emit("view", { view: v, events: v.events });
  const now = `${v.turn}/${v.phase}/${v.result}`;
  if (now !== shown) {
    shown = now;
    app.emit("phase", { turn: v.turn, phase: v.phase, result: v.result });
    $("order-lines").value = loadDraft("orders") || "";
  }
}

// One read of the view at a time. Each read asks for the events after `cursor` and moves it on,
// so two reads in flight would ask from the same cursor: both answers carry the same new events
// (listed twice), and the older one, arriving last, would put back its phase and an older cursor.
// Dropping a late answer is no cure either, as the cursor it carries may be the only one past
// its events. So a read asked for while one is in flight waits for it and then reads again;
// every caller asking meanwhile shares that one follow-up read (its answer is at least as new as
// the moment they asked).
let reading = null; // the read in flight
let readingNext = null; // the read queued behind it

function poll() {
  if (!reading) {
    reading = readView().finally(() => {
      reading = null;
    });
    return reading;
  }
  if (!readingNext) {
    const again = () => {
      readingNext = null;
      return poll();
    };
    readingNext = reading.then(again, again);
  }
  return readingNext;
}

async function readView() {
  const asked = `${seat.game}/${seat.token}`;
  let answer;
  try {
    answer = await api(`/view?since=${cursor}`);
  } catch (_) {
    return false; // the server cannot be reached (the live part says so)
  }
  if (asked !== `${seat.game}/${seat.token}`) return false; // another seat was joined meanwhile
  const { response, body } = answer;
  if (!response.ok) {
    say(problem(body, response), "error");
    return false;
  }
  cursor = Number(response.headers.get("X-Battleline-Events") || cursor);
  show(body);
  return true;
}

function orders() {
  const lines = $("order-lines").value.split("\n").filter((l) => l.trim() !== "");
  return {
    turn: Number($("turn").textContent),
    phase: $("phase").textContent,
    lines,
  };
}

async function send(path, okText) {
  const payload = orders();
  let answer;
  try {
    answer = await api(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
  } catch (_) {
    say("The server cannot be reached; nothing was sent.", "error");
    app.emit("unsent", { path, orders: payload });
    return;
  }
  const { response, body } = answer;
  if (response.ok) {
    say(okText(body), "ok");
    await poll();
  } else {
    say(problem(body, response), "error");
  }
}

async function claim(game, invite) {
  const response = await fetchPaced(`/api/games/${encodeURIComponent(game)}/claim`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ invite }),
  });
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) {
    say(problem(body, response), "error");
    return null;
  }
  history.replaceState(null, "", `#game=${encodeURIComponent(game)}&token=${encodeURIComponent(body.token)}`);
  $("token").value = body.token;
  return body.token;
}

async function enter(game, secret) {
  // The form takes a seat's token or an invite: try it as a token, then claim it as an invite.
  game = game.trim();
  secret = secret.trim();
  const probe = await fetchPaced(`/api/games/${encodeURIComponent(game)}/view?since=1000000000`, {
    headers: { "X-Battleline-Token": secret },
  });
  if (probe.status === 403) {
    const token = await claim(game, secret);
    if (token) {
      await join(game, token);
      say(`Seat claimed. Bookmark this address: it is your ${$("side").textContent} seat.`, "ok");
    }
    return;
  }
  await join(game, secret);
}

async function join(game, token) {
  seat.game = game.trim();
  seat.token = token.trim();
  cursor = 0;
  shown = "";
  $("event-list").replaceChildren();
  if (!(await poll())) return;
  $("game").hidden = false;
  say("", "");
  if (timer) clearInterval(timer);
  if (app.polling) timer = setInterval(poll, POLL_MS);
  app.emit("joined", { ...seat });
}

async function showGameLink(game) {
  // The game link: what anyone may know of a game (its scenario and which seats are taken).
  const response = await fetchPaced(`/api/games/${encodeURIComponent(game)}`);
  let info = null;
  try {
    info = await response.json();
  } catch (_) {
    info = null;
  }
  if (!response.ok) {
    say(problem(info, response), "error");
    return;
  }
  const seats = info.seats
    .map((s) => `${s.side}: ${s.human ? (s.claimed ? "taken" : "open") : "the computer"}`)
    .join(", ");
  say(`${info.title} (${seats}). Open your invite link, or paste your seat's token or invite.`, "");
}

async function start() {
  for (const part of [live, table, forms, shiplog, running]) part.mount(app);
  try {
    help = await (await fetchPaced("/api/notation")).json();
  } catch (_) {
    help = {};
  }
  $("join").addEventListener("submit", (ev) => {
    ev.preventDefault();
    enter($("game-id").value, $("token").value);
  });
  $("order-lines").addEventListener("input", () => saveDraft("orders", $("order-lines").value));
  $("check-button").addEventListener("click", () =>
    send("/check", () => "The umpire accepts these orders (not yet sealed)."),
  );
  $("submit-button").addEventListener("click", () =>
    send("/orders", (b) =>
      b.resolved ? "Sealed; the phase has resolved." : "Sealed. Waiting for the other side…",
    ),
  );
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("game") && params.get("token")) {
    $("game-id").value = params.get("game");
    $("token").value = params.get("token");
    join(params.get("game"), params.get("token"));
  } else if (params.get("game") && params.get("invite")) {
    $("game-id").value = params.get("game");
    const token = await claim(params.get("game"), params.get("invite"));
    if (token) {
      await join(params.get("game"), token);
      say(`Seat claimed. Bookmark this address: it is your ${$("side").textContent} seat.`, "ok");
    }
  } else if (params.get("game")) {
    $("game-id").value = params.get("game");
    showGameLink(params.get("game"));
  }
}

start();
