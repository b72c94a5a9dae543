// The page's table part: the table as the side sees it, drawn as SVG from GET /table.
//
// Everything drawn comes from the server's answer (the ruleset's web_table part, built from the
// side's view): the page computes no rule. It draws at one fixed scale (PX_PER_M); pan and zoom
// only move the SVG's viewBox, which stays where the player left it from turn to turn. Range
// rings are centred on the selected own ship only; there is no ruler and no distance readout to
// an enemy ship (range is judged by eye).

const SVG = "http://www.w3.org/2000/svg";
/** Pixels per metre of sea at zoom 1 (1 km = 50 px). Never changes with the turn. */
export const PX_PER_M = 0.05;
const ZOOM_STEP = 1.25;
const PAN_STEP = 0.1; // of the view's width, per arrow key
/** One colour per mounting, in the order of the ship's mountings. */
const COLOURS = [
  "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
  "#e377c2", "#17becf", "#bcbd22", "#393b79", "#637939", "#843c39",
];

const state = {
  app: null,
  data: null, // the last /table answer
  selected: null, // name of the selected own ship
  box: null, // the viewBox {x, y, w, h} in px
  turn: null, // the turn shown (null: live)
  asked: 0, // the number of the latest GET /table sent
};

const px = (m) => m * PX_PER_M;
const X = (x) => px(x);
const Y = (y) => -px(y);

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function html(name, attrs = {}, text = "") {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text) node.textContent = text;
  return node;
}

function layout(root) {
  root.replaceChildren();
  root.appendChild(html("h3", {}, "The table"));
  const bar = html("div", { class: "table-controls" });
  const zoomIn = html("button", { type: "button", id: "table-zoom-in", "aria-label": "zoom in" }, "+");
  const zoomOut = html("button", { type: "button", id: "table-zoom-out", "aria-label": "zoom out" }, "−");
  const centre = html("button", { type: "button", id: "table-centre" }, "Centre");
  const label = html("label", { for: "table-turn", class: "table-turn-label" });
  label.append("Turn ");
  const turnOut = html("output", { id: "table-turn-shown", for: "table-turn" });
  label.appendChild(turnOut);
  const slider = html("input", { type: "range", id: "table-turn", min: 1, max: 1, value: 1, step: 1 });
  bar.append(zoomIn, zoomOut, centre, label, slider);
  root.appendChild(bar);
  const svg = el("svg", {
    id: "table-svg",
    class: "table-svg",
    tabindex: 0,
    role: "application",
    "aria-label": "the table: arrow keys pan, + and - zoom",
  });
  root.appendChild(svg);
  const note = html("p", { id: "table-note", class: "table-note", role: "status" });
  root.appendChild(note);
  const ships = html("div", { class: "table-ships" });
  ships.appendChild(html("span", {}, "Select a ship: "));
  ships.appendChild(html("span", { id: "table-ship-list" }));
  root.appendChild(ships);
  root.appendChild(html("div", { id: "table-legend", class: "table-legend", "aria-live": "polite" }));

  zoomIn.addEventListener("click", () => zoom(1 / ZOOM_STEP));
  zoomOut.addEventListener("click", () => zoom(ZOOM_STEP));
  centre.addEventListener("click", () => {
    state.box = null;
    draw();
  });
  slider.addEventListener("input", () => {
    const n = Number(slider.value);
    turnOut.textContent = describeTurn(n);
  });
  slider.addEventListener("change", () => {
    const n = Number(slider.value);
    state.turn = n >= Number(slider.max) ? null : n;
    load();
  });
  svg.addEventListener("keydown", onKey);
  svg.addEventListener("wheel", onWheel, { passive: false });
  dragging(svg);
}

function describeTurn(n) {
  const max = state.data ? state.data.turns_seen : n;
  return n >= max ? `${n} (now)` : `${n} (as it opened)`;
}

function setBox(box) {
  state.box = box;
  const svg = state.app.$("table-svg");
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  drawScaleBar();
}

function initialBox() {
  const svg = state.app.$("table-svg");
  const w = svg.clientWidth || 360;
  const h = svg.clientHeight || 300;
  const d = state.data;
  const own = d.own.filter((s) => !s.marks.includes("sunk"));
  const ships = own.length ? own : d.own.length ? d.own : d.enemy;
  let cx = (d.extent.min_x + d.extent.max_x) / 2;
  let cy = (d.extent.min_y + d.extent.max_y) / 2;
  if (ships.length) {
    cx = ships.reduce((a, s) => a + s.x, 0) / ships.length;
    cy = ships.reduce((a, s) => a + s.y, 0) / ships.length;
  }
  return { x: X(cx) - w / 2, y: Y(cy) - h / 2, w, h };
}

function zoom(factor) {
  const b = state.box;
  const w = b.w * factor;
  const h = b.h * factor;
  setBox({ x: b.x + (b.w - w) / 2, y: b.y + (b.h - h) / 2, w, h });
}

function pan(dx, dy) {
  const b = state.box;
  setBox({ ...b, x: b.x + dx * b.w, y: b.y + dy * b.h });
}

function onKey(ev) {
  const moves = { ArrowLeft: [-PAN_STEP, 0], ArrowRight: [PAN_STEP, 0], ArrowUp: [0, -PAN_STEP], ArrowDown: [0, PAN_STEP] };
  if (ev.target !== state.app.$("table-svg")) {
    if (ev.key === "Enter" || ev.key === " ") {
      const name = ev.target.dataset && ev.target.dataset.ship;
      if (name) {
        ev.preventDefault();
        select(name);
      }
      return;
    }
  }
  if (moves[ev.key]) {
    ev.preventDefault();
    pan(...moves[ev.key]);
  } else if (ev.key === "+" || ev.key === "=") {
    ev.preventDefault();
    zoom(1 / ZOOM_STEP);
  } else if (ev.key === "-" || ev.key === "_") {
    ev.preventDefault();
    zoom(ZOOM_STEP);
  }
}

function onWheel(ev) {
  if (!state.box) return;
  ev.preventDefault();
  zoom(ev.deltaY < 0 ? 1 / ZOOM_STEP : ZOOM_STEP);
}

function dragging(svg) {
  let from = null;
  svg.addEventListener("pointerdown", (ev) => {
    if (!state.box || ev.button !== 0) return;
    from = { x: ev.clientX, y: ev.clientY, box: { ...state.box }, moved: false };
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!from) return;
    const dx = ev.clientX - from.x;
    const dy = ev.clientY - from.y;
    if (!from.moved && Math.hypot(dx, dy) < 4) return;
    if (!from.moved) svg.setPointerCapture(ev.pointerId);
    from.moved = true;
    const k = from.box.w / (svg.clientWidth || from.box.w);
    setBox({ ...from.box, x: from.box.x - dx * k, y: from.box.y - dy * k });
  });
  const end = () => {
    from = null;
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
}

/** A base: a rectangle `length` long pointing along `heading`, centred on (x, y). */
function base(parent, ship, cls) {
  const g = el("g", { transform: `translate(${X(ship.x)} ${Y(ship.y)}) rotate(${ship.heading})`, class: cls }, parent);
  const l = Math.max(px(ship.length_m), 4);
  const w = Math.max(px(ship.width_m), 2);
  el("rect", { x: -w / 2, y: -l / 2, width: w, height: l, rx: w / 3 }, g);
  el("path", { d: `M ${-w / 2} ${-l / 2 + w / 2} L 0 ${-l / 2 - w / 2} L ${w / 2} ${-l / 2 + w / 2} Z`, class: "table-bow" }, g);
  return g;
}

function label(parent, ship, text, cls) {
  const t = el("text", { x: X(ship.x) + 8, y: Y(ship.y) - 8, class: cls }, parent);
  t.textContent = text;
}

/** Points of an arc of relative bearings [start, end] (clockwise) from a ship, radius r (m). */
function wedge(ship, start, end, r) {
  let width = (((end - start) % 360) + 360) % 360;
  if (width === 0 && end !== start) width = 360;
  const steps = Math.max(2, Math.ceil(width / 5));
  const pts = [`${X(ship.x)},${Y(ship.y)}`];
  for (let i = 0; i <= steps; i++) {
    const a = ((ship.heading + start + (width * i) / steps) * Math.PI) / 180;
    pts.push(`${X(ship.x + r * Math.sin(a))},${Y(ship.y + r * Math.cos(a))}`);
  }
  return pts.join(" ");
}

/** Points of a region given as [relative bearing, reach in metres] rays from a ship's centre. */
function outline(ship, rays) {
  return rays
    .map(([theta, r]) => {
      const a = ((ship.heading + theta) * Math.PI) / 180;
      return `${X(ship.x + r * Math.sin(a))},${Y(ship.y + r * Math.cos(a))}`;
    })
    .join(" ");
}

function drawSelected(layer, ship) {
  const d = state.data;
  for (const r of d.scale.range_brackets_m) {
    el("circle", { cx: X(ship.x), cy: Y(ship.y), r: px(r), class: "table-ring" }, layer);
  }
  ship.arcs.forEach((m, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const g = el("g", { class: "table-arc", "data-mounting": m.mounting, fill: colour, stroke: colour }, layer);
    for (const grp of m.groups) {
      if (!grp.ready) continue;
      if (grp.outline) el("polygon", { points: outline(ship, grp.outline) }, g);
      for (const [a, b] of grp.arcs || []) el("polygon", { points: wedge(ship, a, b, m.max_range_m) }, g);
    }
  });
  // Turning circle: the two circles the ship can turn on, tangent to her course at her centre
  // (none where the rules have no turning circle).
  const r = ship.turning_radius_m;
  const h = (ship.heading * Math.PI) / 180;
  for (const side of r ? [1, -1] : []) {
    const cx = ship.x + side * r * Math.cos(h);
    const cy = ship.y - side * r * Math.sin(h);
    el("circle", { cx: X(cx), cy: Y(cy), r: px(r), class: "table-turning" }, layer);
  }
  // Move allowance: straight ahead, the most she may move, with a tick at the least.
  const ahead = (m) => [X(ship.x + m * Math.sin(h)), Y(ship.y + m * Math.cos(h))];
  const [mx, my] = ahead(ship.move_allowance_m.max);
  el("line", { x1: X(ship.x), y1: Y(ship.y), x2: mx, y2: my, class: "table-move" }, layer);
  const [nx, ny] = ahead(ship.move_allowance_m.min);
  el("circle", { cx: nx, cy: ny, r: 3, class: "table-move-min" }, layer);
  el("circle", { cx: mx, cy: my, r: 4, class: "table-move-max" }, layer);
}

function drawScaleBar() {
  const svg = state.app.$("table-svg");
  const old = svg.querySelector("#table-scale");
  if (old) old.remove();
  if (!state.box || !state.data) return;
  const b = state.box;
  const perPx = b.w / (svg.clientWidth || b.w) / PX_PER_M; // metres per screen pixel
  const want = perPx * 100;
  const nice = [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000].find((n) => n >= want) || 50000;
  const k = b.w / (svg.clientWidth || b.w); // user units per screen pixel
  const g = el("g", { id: "table-scale", class: "table-scale" }, svg);
  const x0 = b.x + 12 * k;
  const y0 = b.y + b.h - 14 * k;
  el("line", { x1: x0, y1: y0, x2: x0 + px(nice), y2: y0, "stroke-width": 3 * k }, g);
  const t = el("text", { x: x0, y: y0 - 5 * k, "font-size": 12 * k }, g);
  const sc = state.data.scale;
  const units = (nice / 1000) * sc.units_per_km;
  t.textContent = `${nice >= 1000 ? `${nice / 1000} km` : `${nice} m`} (${units.toFixed(sc.table_unit === "mm" ? 0 : 1)} ${sc.table_unit})`;
}

function draw() {
  const d = state.data;
  const svg = state.app.$("table-svg");
  svg.replaceChildren();
  if (!state.box) setBox(initialBox());
  const land = el("g", { class: "table-land" }, svg);
  for (const p of d.land) {
    el("polygon", { points: p.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(" ") }, land).appendChild(
      Object.assign(el("title"), { textContent: p.name }),
    );
  }
  const tracks = el("g", { class: "table-tracks" }, svg);
  for (const s of d.own) {
    if (s.track.length > 1) {
      el("polyline", { points: s.track.map(([x, y]) => `${X(x)},${Y(y)}`).join(" ") }, tracks);
    }
  }
  const chosen = d.own.find((s) => s.name === state.selected);
  const sel = el("g", { id: "table-selection" }, svg);
  if (chosen) drawSelected(sel, chosen);
  const marks = el("g", { class: "table-markers" }, svg);
  for (const m of d.markers) {
    const old = m.turn < d.turn ? " table-old" : "";
    if (m.kind === "torpedo") {
      el("line", { x1: X(m.from[0]), y1: Y(m.from[1]), x2: X(m.to[0]), y2: Y(m.to[1]), class: `table-torpedo${old}` }, marks);
    } else {
      const c = el("circle", { cx: X(m.x), cy: Y(m.y), r: m.kind === "fire" ? 7 : 4, class: `table-${m.kind}${old}` }, marks);
      el("title", {}, c).textContent = m.kind === "fire" ? `${m.ship} burning` : `${m.kind}: ${m.firer} → ${m.target} (${m.fall})`;
    }
  }
  const enemy = el("g", { class: "table-enemy" }, svg);
  for (const s of d.enemy) {
    const g = base(enemy, s, s.observed ? "table-seen" : "table-exact");
    el("title", {}, g).textContent = `${s.name} (${s.class}) as seen${s.marks.length ? `: ${s.marks.join(", ")}` : ""}`;
    label(enemy, s, s.marks.length ? `${s.name} (${s.marks.join(", ")})` : s.name, "table-label table-enemy-label");
  }
  const own = el("g", { class: "table-own" }, svg);
  for (const s of d.own) {
    const g = base(own, s, `table-ship${s.name === state.selected ? " table-selected" : ""}${s.marks.includes("sunk") ? " table-sunk" : ""}`);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", `${s.name}, ${s.division || "no division"}`);
    g.setAttribute("aria-pressed", String(s.name === state.selected));
    g.dataset.ship = s.name;
    g.addEventListener("click", () => select(s.name));
    const marks = s.marks.length ? ` (${s.marks.join(", ")})` : "";
    label(own, s, `${s.name} · ${s.division}${marks}`, "table-label");
  }
  setBox(state.box);
  drawList();
  drawLegend(chosen);
}

function drawList() {
  const list = state.app.$("table-ship-list");
  list.replaceChildren();
  for (const s of state.data.own) {
    const b = html("button", { type: "button", class: "table-pick", "aria-pressed": String(s.name === state.selected) }, s.name);
    b.dataset.ship = s.name;
    b.addEventListener("click", () => select(s.name));
    list.appendChild(b);
  }
}

function drawLegend(ship) {
  const box = state.app.$("table-legend");
  box.replaceChildren();
  if (!ship) {
    box.appendChild(html("p", {}, "Select one of your ships to see its arcs of fire, turning circle and move allowance."));
    return;
  }
  const sc = state.data.scale;
  const toTable = (m) => `${((m / 1000) * sc.units_per_km).toFixed(sc.table_unit === "mm" ? 0 : 1)} ${sc.table_unit}`;
  const head = html("p", {});
  const move = ship.move_allowance_m;
  const speed = ship.speed_knots !== null && ship.speed_knots !== undefined ? `${ship.speed_knots} kn` : `speed ${ship.speed}`;
  head.textContent =
    `${ship.name} (${ship.class}), ${ship.division}: ${speed}; ` +
    `move this ${move.per || "turn"} ${toTable(move.min)}–${toTable(move.max)}` +
    (ship.turning_radius_m ? `; turning circle radius ${toTable(ship.turning_radius_m)}` : "") +
    (ship.marks.length ? `; ${ship.marks.join(", ")}` : "") +
    `. Rings: range brackets at ${sc.range_brackets_m.map(toTable).join(", ")}.`;
  box.appendChild(head);
  if (!state.data.arcs_drawn) {
    box.appendChild(html("p", {}, "This ruleset's arcs of fire are not drawn."));
    return;
  }
  const list = html("ul", { class: "table-mounts" });
  ship.arcs.forEach((m, i) => {
    const ready = m.groups.reduce((a, g) => a + g.ready, 0);
    const li = html("li", { "data-mounting": m.mounting });
    const swatch = html("span", { class: "table-swatch", style: `background:${COLOURS[i % COLOURS.length]}` });
    li.appendChild(swatch);
    const guns = m.guns ? `, ${ready} of ${m.guns} gun(s) in action` : ready ? "" : ", may not fire";
    const rof = m.rof ? `, ROF ${m.rof}` : "";
    li.append(`${m.mounting}: ${m.label}${guns}${rof}, to ${toTable(m.max_range_m)} (${m.rule})`);
    list.appendChild(li);
  });
  box.appendChild(list);
}

function select(name) {
  const active = document.activeElement;
  const where = active && active.closest ? (active.closest("#table-svg") ? "#table-svg" : active.closest("#table-ship-list") ? "#table-ship-list" : null) : null;
  state.selected = state.selected === name ? null : name;
  draw();
  if (where) {
    const again = state.app.$("table-part").querySelector(`${where} [data-ship="${CSS.escape(name)}"]`);
    if (again) again.focus();
  }
}

async function load() {
  const app = state.app;
  const q = state.turn === null ? "" : `?turn=${state.turn}`;
  const mine = ++state.asked;
  const { response, body } = await app.api(`/table${q}`);
  if (mine !== state.asked) return; // a newer load (a later phase or turn) was sent meanwhile
  const note = app.$("table-note");
  if (!response.ok) {
    note.textContent = body && typeof body.detail === "string" ? body.detail : `the table could not be read (${response.status})`;
    if (response.status === 404) app.$("table-svg").replaceChildren();
    return;
  }
  state.data = body;
  if (state.selected && !body.own.some((s) => s.name === state.selected)) state.selected = null;
  const slider = app.$("table-turn");
  slider.max = String(body.turns_seen);
  slider.value = String(state.turn === null ? body.turns_seen : state.turn);
  app.$("table-turn-shown").textContent = describeTurn(Number(slider.value));
  note.textContent = body.live
    ? `Now: turn ${body.turn}, ${body.phase} phase. Enemy ships are drawn where your ships see them.`
    : `Turn ${body.turn} as it stood when it opened (${body.phase} phase).`;
  draw();
}

/** Hook this part into the page's shared `app` (see main.js). */
export function mount(app) {
  state.app = app;
  const root = app.$("table-part");
  layout(root);
  app.on("joined", () => {
    root.hidden = false;
    state.box = null;
    state.selected = null;
    state.turn = null;
    load();
  });
  app.on("phase", () => {
    if (state.turn === null && !root.hidden) load();
  });
}
