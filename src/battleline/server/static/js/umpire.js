// The umpire's page (/umpire#game=ID&token=UMPIRE): the full picture of the game (every side's
// sealed orders, every event, the true table), the turn deadline, and the umpire's actions:
// resolve an overdue phase, hand an absent side to the computer, take it back. After the battle
// it shows the after-action report and the replay, as the players' page does.
import { getJson, rememberSeat, renderAar, mountReplay, showClock } from "./running.js";

const POLL_MS = 5000;
const $ = (id) => document.getElementById(id);
const seat = { game: "", token: "" };
let clock = null;
let timer = null;
let shownPicture = "";
let afterShown = false;
let lastFull = "";
let asked = 0; // the number of the latest refresh begun (the timer and the actions overlap)

function call(path, options = {}) {
  const headers = { "X-Battleline-Token": seat.token, ...(options.headers || {}) };
  return getJson(`/api/games/${encodeURIComponent(seat.game)}${path}`, { ...options, headers });
}

function say(text, kind = "") {
  const box = $("umpire-message");
  box.textContent = text;
  box.className = kind;
}

const post = (path, body) =>
  call(path, {
    method: path === "/deadline" ? "PUT" : "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

async function act(path, body, done) {
  const got = await post(path, body);
  if (got.ok) say(done(got.body), "ok");
  else say((got.body && got.body.detail) || `the server answered ${got.status}`, "error");
  await refresh();
  if (clock) clock.reload();
}

function sideRow(s, running) {
  const tr = document.createElement("tr");
  tr.dataset.side = s.side;
  const seatText = !s.seat ? "none (computer side)" : s.claimed ? "claimed" : "invite not used";
  const orders = s.sealed ? "sealed" : s.awaited ? "awaited" : "—";
  for (const text of [s.side, seatText, orders, s.computer ? "the computer" : "a player"]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  const td = document.createElement("td");
  if (!running.finished) {
    const button = document.createElement("button");
    button.type = "button";
    if (s.computer) {
      button.textContent = `Take ${s.side} back`;
      button.disabled = !s.seat;
      button.addEventListener("click", () =>
        act("/take-back", { side: s.side }, () => `${s.side} is back with its player.`),
      );
    } else {
      button.textContent = `Hand ${s.side} to the computer`;
      button.addEventListener("click", () =>
        act("/hand-to-ai", { side: s.side }, (b) =>
          `The computer plays ${s.side}; now turn ${b.turn}, ${b.phase} phase.`,
        ),
      );
    }
    td.append(button);
  }
  tr.append(td);
  return tr;
}

async function refresh() {
  const mine = ++asked;
  const got = await call("/umpire/running");
  if (mine !== asked) return true; // a newer refresh was begun meanwhile: it shows the game
  if (!got.ok) {
    say((got.body && got.body.detail) || `the server answered ${got.status}`, "error");
    return false;
  }
  const r = got.body;
  $("umpire-turn").textContent = r.turn;
  $("umpire-phase").textContent = r.phase;
  $("umpire-result").hidden = !r.finished;
  $("umpire-result").textContent = r.finished ? `The battle is over: ${r.result}` : "";
  $("umpire-resolve").disabled = r.finished || !r.clock.passed;
  $("umpire-deadline").hidden = r.finished;
  $("umpire-resolve").hidden = r.finished;
  if (r.clock.deadline_minutes && document.activeElement !== $("umpire-minutes")) {
    $("umpire-minutes").value = r.clock.deadline_minutes;
  }
  $("umpire-sides").replaceChildren(...r.sides.map((s) => sideRow(s, r)));
  const actions = $("umpire-actions");
  actions.replaceChildren();
  for (const a of r.actions) {
    const li = document.createElement("li");
    const extra = a.no_orders ? ` (no orders: ${a.no_orders.join(", ") || "none"})` : "";
    li.textContent = `${a.at.slice(0, 19).replace("T", " ")} turn ${a.turn} ${a.phase}: ${a.action}${extra}`;
    actions.append(li);
  }
  if (!$("umpire-title").textContent) {
    const info = await call("");
    $("umpire-title").textContent = info.ok ? info.body.title : seat.game;
  }
  // The full picture (every event) only when something changed: it grows with the game.
  const changed = JSON.stringify([r.turn, r.phase, r.finished, r.sides, r.actions.length]);
  const full = changed === lastFull ? { ok: false } : await call("/umpire");
  if (mine !== asked) return true;
  if (full.ok) {
    lastFull = changed;
    const pending = Object.entries(full.body.pending || {});
    $("umpire-pending").textContent = pending.length
      ? pending.map(([side, lines]) => `${side}:\n  ${lines.join("\n  ") || "(no orders)"}`).join("\n")
      : "(none sealed yet)";
    const list = $("umpire-events");
    list.replaceChildren();
    for (const e of full.body.events.slice(-300)) {
      if (e.kind === "roll") continue;
      const li = document.createElement("li");
      li.textContent = `T${e.turn} ${e.phase || ""}: ${e.text}`;
      list.prepend(li);
    }
  }
  const now = `${r.turn}/${r.phase}/${r.finished}`;
  if (now !== shownPicture) {
    shownPicture = now;
    $("umpire-picture").src =
      `/api/games/${encodeURIComponent(seat.game)}/umpire/picture.svg` +
      `?token=${encodeURIComponent(seat.token)}&at=${encodeURIComponent(now)}`;
  }
  if (r.finished && !afterShown) {
    afterShown = true;
    if (clock) clock.stop();
    $("umpire-clock").textContent = "";
    const box = $("umpire-after");
    const report = document.createElement("div");
    const replay = document.createElement("div");
    box.replaceChildren(report, replay);
    const aar = await call("/aar");
    if (aar.ok) renderAar(report, aar.body);
    await mountReplay(replay, seat.game);
  }
  return true;
}

async function open(game, token) {
  seat.game = game.trim();
  seat.token = token.trim();
  afterShown = false;
  shownPicture = "";
  lastFull = "";
  $("umpire-title").textContent = "";
  if (!(await refresh())) return;
  $("umpire").hidden = false;
  rememberSeat({
    game: seat.game,
    side: "umpire",
    token: seat.token,
    url: `${location.origin}/umpire#game=${encodeURIComponent(seat.game)}&token=${encodeURIComponent(seat.token)}`,
  });
  if (clock) clock.stop();
  clock = showClock($("umpire-clock"), seat.game);
  if (timer) clearInterval(timer);
  timer = setInterval(refresh, POLL_MS);
}

function start() {
  $("umpire-join").addEventListener("submit", (ev) => {
    ev.preventDefault();
    open($("umpire-game").value, $("umpire-token").value);
  });
  $("umpire-deadline").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const minutes = Number($("umpire-minutes").value);
    act("/deadline", { minutes }, () => `Deadline: ${minutes} minutes a phase.`);
  });
  $("umpire-no-deadline").addEventListener("click", () =>
    act("/deadline", { minutes: null }, () => "This game has no deadline now."),
  );
  $("umpire-resolve").addEventListener("click", () =>
    act(
      "/resolve",
      { turn: Number($("umpire-turn").textContent), phase: $("umpire-phase").textContent },
      (b) =>
        `Resolved${b.no_orders.length ? ` (no orders for ${b.no_orders.join(", ")})` : ""}; ` +
        `now turn ${b.turn}, ${b.phase} phase.`,
    ),
  );
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("game") && params.get("token")) {
    $("umpire-game").value = params.get("game");
    $("umpire-token").value = params.get("token");
    open(params.get("game"), params.get("token"));
  }
}

start();
