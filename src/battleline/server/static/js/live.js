// The page's live part: the push channel (server-sent events), presence, chat, the outage banner
// with its queued orders, and "your move" notifications.
//
// While the stream is open the page does not poll: a push ("sealed", "resolved") makes it fetch
// its own view once. When the stream breaks, a banner says so, the draft stays in the text box
// (and in localStorage), and the page tries the server again with growing pauses; orders sealed
// meanwhile are queued and sent when the server answers again, unless their phase has closed.

const EVENTS = ["hello", "sealed", "resolved", "presence", "chat"];
const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 30000;

let app = null;
let source = null; // the EventSource
let lastId = ""; // the id of the last message received (resumes the stream)
let pause = FIRST_PAUSE_MS;
let retry = null; // the timer of the next try while the server is unreachable
let sides = [];
let present = [];
const shownChat = new Set();
let notified = ""; // the turn/phase last notified

const el = (tag, props = {}, ...children) => {
  const { attrs = {}, ...rest } = props;
  const node = Object.assign(document.createElement(tag), rest);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
};

function queueKey() {
  const v = app.latest;
  return v ? `battleline:queued:${app.seat.game}:${v.side}` : null;
}

function queued() {
  const at = queueKey();
  try {
    return at ? JSON.parse(localStorage.getItem(at) || "null") : null;
  } catch (_) {
    return null;
  }
}

function setQueued(orders) {
  const at = queueKey();
  if (!at) return;
  try {
    if (orders) localStorage.setItem(at, JSON.stringify(orders));
    else localStorage.removeItem(at);
  } catch (_) {
    // storage refused: the queue is lost with the page, the draft is still in the box
  }
}

function banner(on) {
  app.$("live-banner").hidden = !on;
  document.body.classList.toggle("live-offline", on);
}

function connect() {
  if (source) source.close();
  const q = new URLSearchParams({ token: app.seat.token });
  if (lastId) q.set("last_event_id", lastId);
  source = new EventSource(`/api/games/${encodeURIComponent(app.seat.game)}/stream?${q}`);
  const mine = source;
  for (const kind of EVENTS) {
    source.addEventListener(kind, (ev) => {
      if (mine !== source) return;
      if (ev.lastEventId) lastId = ev.lastEventId;
      let data = null;
      try {
        data = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      handle(kind, data);
    });
  }
  source.onerror = () => {
    if (mine === source) down();
  };
}

function down() {
  // The stream broke: stop the browser's own retries and try again with pauses. The banner
  // shows once a try finds the server unreachable (not when only the stream was refused).
  if (source) source.close();
  source = null;
  app.$("live-state").textContent = "not connected";
  schedule();
}

function schedule() {
  if (retry) clearTimeout(retry);
  retry = setTimeout(probe, pause);
  pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
}

async function probe() {
  // The fallback poll: read the view; when the server answers, open the stream again.
  retry = null;
  let ok = false;
  try {
    ok = await app.refresh();
  } catch (_) {
    ok = false;
  }
  banner(!ok);
  if (ok) connect();
  else schedule();
}

async function handle(kind, data) {
  if (kind === "hello") {
    pause = FIRST_PAUSE_MS;
    if (retry) clearTimeout(retry);
    retry = null;
    app.stopPolling();
    banner(false);
    app.$("live-state").textContent = "connected";
    sides = data.sides || sides;
    showPresence(data.present);
    await app.refresh();
    await sendQueued();
    await readChat(data.result !== null);
  } else if (kind === "sealed") {
    await app.refresh();
  } else if (kind === "resolved") {
    await app.refresh();
    if (data.result !== null) await readChat(true);
  } else if (kind === "presence") {
    showPresence(data.present);
  } else if (kind === "chat") {
    showChat([data]);
  }
}

async function sendQueued() {
  // Orders sealed while the server was away: send them if their phase is still open.
  const q = queued();
  const v = app.latest;
  if (!q || !v) return;
  setQueued(null);
  if (v.result !== null || q.turn !== v.turn || q.phase !== v.phase) {
    app.say(
      `Your orders for turn ${q.turn}, ${q.phase} phase were not sent: that phase closed while ` +
        `the server was away (the open phase is turn ${v.turn}, ${v.phase}). They were:\n` +
        (q.lines.join("\n") || "(no orders)"),
      "error",
    );
    return;
  }
  let answer;
  try {
    answer = await app.api("/orders", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(q),
    });
  } catch (_) {
    setQueued(q);
    down();
    return;
  }
  const { response, body } = answer;
  if (response.ok) {
    app.say(
      body.resolved
        ? "The server is back: your queued orders were sealed and the phase has resolved."
        : "The server is back: your queued orders are sealed. Waiting for the other side…",
      "ok",
    );
  } else {
    const why = body && typeof body.detail === "string" ? body.detail : `${response.status}`;
    app.say(`The server is back but refused your queued orders: ${why}`, "error");
  }
  await app.refresh();
}

function showPresence(now) {
  present = now || [];
  const list = app.$("live-presence");
  const me = app.latest ? app.latest.side : app.seat.side;
  const seats = [...new Set([...sides, ...present])];
  list.replaceChildren(
    ...seats.map((s) => {
      const here = present.includes(s);
      const li = el("li", { className: here ? "live-here" : "live-away" });
      li.textContent = `${s}${s === me ? " (you)" : ""}: ${here ? "connected" : "not connected"}`;
      return li;
    }),
  );
}

async function readChat(everything) {
  const since = everything ? 0 : Math.max(0, ...shownChat);
  let answer;
  try {
    answer = await app.api(`/chat?since=${since}`);
  } catch (_) {
    return;
  }
  if (answer.response.ok && Array.isArray(answer.body)) showChat(answer.body);
}

function showChat(messages) {
  const list = app.$("live-chat-list");
  for (const m of messages.sort((a, b) => a.id - b.id)) {
    if (shownChat.has(m.id)) continue;
    shownChat.add(m.id);
    const to = m.channel === "all" ? "to everyone" : `to ${m.side}`;
    const li = el("li", { className: `live-chat-${m.channel}` });
    li.append(el("b", {}, `${m.from} `), el("small", {}, `(${to}) `), m.text);
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
}

async function sendChat(ev) {
  ev.preventDefault();
  const input = app.$("live-chat-text");
  const note = app.$("live-chat-note");
  const text = input.value.trim();
  if (!text) return;
  let answer;
  try {
    answer = await app.api("/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ channel: app.$("live-channel").value, text }),
    });
  } catch (_) {
    note.textContent = "Not sent: the server cannot be reached. Your message is kept.";
    return;
  }
  const { response, body } = answer;
  if (!response.ok) {
    note.textContent = body && typeof body.detail === "string" ? body.detail : "Not sent.";
    return;
  }
  note.textContent = "";
  input.value = "";
  showChat([body]);
}

function onUnsent({ path, orders }) {
  if (path !== "/orders") return;
  setQueued(orders);
  app.say(
    "The server cannot be reached. Your orders are kept and will be sealed when it is back.",
    "error",
  );
  banner(true);
  if (source) down();
}

function maybeNotify({ view: v }) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const key = `${v.turn}/${v.phase}`;
  const mine = v.result === null && v.waiting_for.includes(v.side) && v.my_orders === null;
  if (!mine || !document.hidden || notified === key) return;
  notified = key;
  try {
    new Notification("battleline: your move", {
      body: `${v.side}: turn ${v.turn}, ${v.phase} phase`,
      tag: "battleline-move",
    });
  } catch (_) {
    // some browsers allow notifications only from a service worker
  }
}

function notifyButton() {
  const button = app.$("live-notify");
  if (!("Notification" in window)) {
    button.hidden = true;
    return;
  }
  const show = () => {
    const on = Notification.permission === "granted";
    button.textContent = on ? "Notifications on" : "Tell me when it is my move";
    button.disabled = on || Notification.permission === "denied";
  };
  show();
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    show();
  });
}

function build(part) {
  part.replaceChildren(
    el(
      "div",
      { id: "live-banner", className: "live-banner", hidden: true, attrs: { role: "alert" } },
      "The server cannot be reached — your draft is kept. Trying again…",
    ),
    el("h3", {}, "Live ", el("small", { id: "live-state" }, "connecting…")),
    el("h4", {}, "At the table"),
    el("ul", { id: "live-presence", className: "live-presence", attrs: { "aria-live": "polite" } }),
    el("button", { id: "live-notify", type: "button" }, "Tell me when it is my move"),
    el("h4", {}, "Chat"),
    el("ol", { id: "live-chat-list", className: "live-chat-list", attrs: { "aria-live": "polite" } }),
    chatForm(),
    el("p", { id: "live-chat-note", className: "live-note", attrs: { role: "status" } }),
  );
}

function chatForm() {
  const channel = el(
    "select",
    { id: "live-channel" },
    el("option", { value: "side" }, "my side and the umpire"),
    el("option", { value: "all" }, "everyone"),
  );
  const text = el("input", {
    id: "live-chat-text",
    maxLength: 1000,
    autocomplete: "off",
    type: "text",
  });
  return el(
    "form",
    { id: "live-chat-form", className: "live-chat-form" },
    el("label", { htmlFor: "live-channel" }, "To"),
    channel,
    el("label", { htmlFor: "live-chat-text" }, "Message"),
    text,
    el("button", { type: "submit", id: "live-chat-send" }, "Send"),
  );
}

/** Hook this part into the page's shared `app` (see main.js). */
export function mount(shell) {
  app = shell;
  const part = app.$("live-part");
  build(part);
  notifyButton();
  app.$("live-chat-form").addEventListener("submit", sendChat);
  app.on("unsent", onUnsent);
  app.on("view", maybeNotify);
  app.on("joined", () => {
    part.hidden = false;
    lastId = "";
    shownChat.clear();
    app.$("live-chat-list").replaceChildren();
    connect();
  });
}
