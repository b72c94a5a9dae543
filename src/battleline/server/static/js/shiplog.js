// The page's ship log part: a side's own ship logs laid out like the paper log, and what it sees
// of each enemy ship in sight. Everything shown comes from GET /shiplog, which the ruleset builds
// from the side's view (own logs in full; of the enemy, only what shows from the bridge). The page
// holds no rules: it draws the boxes and marks the server sends.

const MARK_WORDS = { none: "clear", slash: "slashed", cross: "crossed" };

let app = null;
let part = null;
let picker = null;
let sheet = null;
let note = null;
let logs = { ships: [], enemies: [] };
let shownKey = "";
let askedKey = ""; // the view's key of the latest read (a second view before its answer: no read)
let asking = 0;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function build() {
  part.replaceChildren();
  part.classList.add("shiplog");
  part.setAttribute("aria-labelledby", "shiplog-title");
  part.appendChild(el("h3", "", "Ship logs")).id = "shiplog-title";
  const label = el("label", "shiplog-pick", "Ship ");
  picker = el("select");
  picker.id = "shiplog-ship";
  picker.addEventListener("change", () => draw());
  label.appendChild(picker);
  part.appendChild(label);
  sheet = el("div", "shiplog-sheet");
  sheet.id = "shiplog-sheet";
  sheet.tabIndex = 0; // scrolls within its own box, by keyboard too
  sheet.setAttribute("role", "region");
  sheet.setAttribute("aria-label", "the chosen ship's log");
  part.appendChild(sheet);
  note = el("p", "shiplog-message");
  note.id = "shiplog-message";
  note.setAttribute("role", "status");
  part.appendChild(note);
}

function fillPicker() {
  const keep = picker.value;
  picker.replaceChildren();
  const groups = [
    ["Your ships", logs.ships, "own"],
    ["Enemy ships in sight", logs.enemies, "enemy"],
  ];
  for (const [title, ships, kind] of groups) {
    if (!ships.length) continue;
    const group = el("optgroup");
    group.label = title;
    for (const ship of ships) {
      const opt = el("option", "", kind === "enemy" ? `${ship.name} (enemy)` : ship.name);
      opt.value = `${kind}:${ship.name}`;
      group.appendChild(opt);
    }
    picker.appendChild(group);
  }
  if ([...picker.options].some((o) => o.value === keep)) picker.value = keep;
}

function box(b) {
  const mark = b.mark || "none";
  const node = el("span", `shiplog-box shiplog-${mark}`, b.label || "");
  if (b.frame) node.classList.add(`shiplog-frame-${b.frame}`);
  if (b.sub) node.appendChild(el("small", "shiplog-sub", b.sub));
  const words = [b.label || "box", MARK_WORDS[mark] || mark];
  if (b.slashes) {
    if (mark === "none") node.classList.replace("shiplog-none", "shiplog-slash");
    node.dataset.slashes = String(b.slashes);
    node.appendChild(el("small", "shiplog-count", "/".repeat(Math.min(b.slashes, 4))));
    words.push(`${b.slashes} hit${b.slashes > 1 ? "s" : ""}`);
  }
  if (b.frame) words.push(b.frame === "closed" ? "contained" : "not contained");
  node.title = words.join(", ");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", node.title);
  return node;
}

function row(r) {
  const line = el("div", "shiplog-row");
  const head = el("div", "shiplog-label", r.label);
  if (r.info) head.appendChild(el("small", "shiplog-info", r.info));
  line.appendChild(head);
  const boxes = el("div", "shiplog-boxes");
  for (const b of r.boxes) boxes.appendChild(box(b));
  if (r.over) boxes.appendChild(el("span", "shiplog-over", `+${r.over}`));
  if (!r.boxes.length && !r.over) boxes.appendChild(el("span", "shiplog-empty", "—"));
  line.appendChild(boxes);
  line.appendChild(el("div", "shiplog-note", r.note || ""));
  return line;
}

function ownLog(log) {
  const out = el("article", "shiplog-log");
  out.dataset.ship = log.name;
  const head = el("div", "shiplog-head");
  head.appendChild(el("h4", "shiplog-name", log.title || log.name));
  const what = [`${log.class} class`, log.navy, log.year].filter((x) => x !== "" && x !== null);
  const where = [log.division, `${log.speed_knots} kn`].filter((x) => x);
  head.appendChild(el("p", "", `${what.join(", ")} — ${where.join(", ")}`));
  for (const s of log.status) head.appendChild(el("span", "shiplog-status", s));
  out.appendChild(head);
  const details = el("dl", "shiplog-details");
  for (const [k, v] of log.details) {
    const pair = el("div");
    pair.appendChild(el("dt", "", k));
    pair.appendChild(el("dd", "", v));
    details.appendChild(pair);
  }
  out.appendChild(details);
  for (const s of log.sections) {
    const part = el("section", "shiplog-section");
    part.dataset.section = s.id;
    part.appendChild(el("h5", "", s.title));
    for (const r of s.rows) part.appendChild(row(r));
    for (const n of s.notes) part.appendChild(el("p", "shiplog-key", n));
    out.appendChild(part);
  }
  const legend = el("ul", "shiplog-legend");
  legend.setAttribute("aria-label", "legend");
  for (const [mark, words] of [["none", "clear"], ...Object.entries(log.legend)]) {
    const item = el("li");
    item.appendChild(box({ label: "", mark }));
    item.appendChild(document.createTextNode(` ${words}`));
    legend.appendChild(item);
  }
  out.appendChild(legend);
  return out;
}

function enemyCard(card) {
  const out = el("article", "shiplog-log shiplog-enemy");
  out.dataset.ship = card.name;
  const head = el("div", "shiplog-head");
  head.appendChild(el("h4", "shiplog-name", card.name));
  head.appendChild(el("p", "", `${card.class} (${card.type}, size ${card.size})`));
  out.appendChild(head);
  const seen = el("p", "shiplog-seen");
  seen.textContent = card.seen.length ? `Seen: ${card.seen.join(", ")}.` : "Nothing shows from outside.";
  out.appendChild(seen);
  if (card.seen_from) out.appendChild(el("p", "shiplog-key", `Seen from ${card.seen_from}.`));
  out.appendChild(el("p", "shiplog-key", card.note));
  return out;
}

function draw() {
  const [kind, ...rest] = (picker.value || "").split(":");
  const name = rest.join(":");
  const list = kind === "enemy" ? logs.enemies : logs.ships;
  const chosen = list.find((s) => s.name === name);
  sheet.replaceChildren();
  if (!chosen) {
    sheet.appendChild(el("p", "shiplog-key", "No ship to show."));
    return;
  }
  sheet.appendChild(kind === "enemy" ? enemyCard(chosen) : ownLog(chosen));
}

async function refresh(key) {
  const ticket = ++asking;
  askedKey = key;
  let answer;
  try {
    answer = await app.api("/shiplog");
  } catch (_) {
    if (ticket === asking) askedKey = ""; // read again with the next view
    return;
  }
  if (ticket !== asking) return; // a newer answer is on its way
  const { response, body } = answer;
  if (!response.ok) {
    askedKey = "";
    note.textContent = body && typeof body.detail === "string" ? body.detail : `the server answered ${response.status}`;
    sheet.replaceChildren();
    picker.replaceChildren();
    return;
  }
  note.textContent = "";
  logs = body;
  shownKey = key;
  part.dataset.shown = key;
  fillPicker();
  draw();
}

/** Hook this part into the page's shared `app` (see main.js). */
export function mount(shared) {
  app = shared;
  part = app.$("shiplog-part");
  if (!part) return;
  build();
  app.on("joined", () => {
    shownKey = "";
    askedKey = "";
    part.hidden = false;
  });
  app.on("view", ({ view, events }) => {
    const key = `${view.turn}/${view.phase}/${view.result}`;
    if (key !== askedKey || (events && events.length)) refresh(key);
  });
}
