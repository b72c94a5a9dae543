// The order forms of each phase, built from the form data the server's ruleset gives, and read
// back as the filled form POST /compose takes. No rules here: every choice offered is in the data.

export const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid) node.append(kid);
  return node;
};
let serial = 0;
export const uid = () => `forms-${++serial}`;

/** A labelled control; `field` names the form field its problems are shown next to. */
function labelled(text, control, field) {
  control.id = control.id || uid();
  const wrap = el("div", { class: "forms-row", dataset: field ? { field } : {} });
  wrap.append(el("label", { for: control.id, text }), control);
  if (field) wrap.append(problemSlot(field));
  return wrap;
}

export function problemSlot(field) {
  return el("span", { class: "forms-problem", role: "alert", dataset: { problemFor: field } });
}

function select(options, value, data = {}) {
  const s = el("select", { dataset: data });
  for (const [v, text] of options) {
    const o = el("option", { value: v, text });
    if (String(v) === String(value ?? "")) o.selected = true;
    s.append(o);
  }
  return s;
}

// -- the forms of each phase ----------------------------------------------------------------

function commandForm(form) {
  const out = [];
  for (const d of form.divisions) {
    const base = `command/${d.name}`;
    const box = el("fieldset", { class: "forms-unit", dataset: { division: d.name, field: base } });
    box.append(el("legend", { text: `${d.name} (flagship ${d.flagship}, ${d.formation})` }));
    box.append(problemSlot(base));
    if (d.must_turn_out) {
      box.append(el("p", { class: "forms-note", text: `${d.flagship} has just dropped out: order a turn out of the line.` }));
    }
    const speeds = [["", `keep last turn's (${d.speed.last} kn)`], ...d.speed.choices.map((k) => [k, `${k} kn`])];
    box.append(labelled(`Speed (${d.speed.min}–${d.speed.max} kn this turn)`, select(speeds, "", { role: "speed" }), `${base}/speed`));
    const turns = el("div", { class: "forms-turns", dataset: { role: "turns" } });
    box.append(turns);
    const add = el("button", { type: "button", class: "forms-add", text: "Add a turn" });
    add.addEventListener("click", () => {
      turns.append(turnRow(form, base, turns.children.length));
      add.dispatchEvent(new Event("input", { bubbles: true })); // the form composes again
    });
    box.append(add);
    const stop = el("input", { type: "checkbox", dataset: { role: "stop" } });
    box.append(labelled("Stop after the minimum move", stop, `${base}/stop`));
    if (d.drop_out.length) {
      const ship = select([["", "none"], ...d.drop_out.map((s) => [s, s])], "", { role: "drop" });
      const side = select([["", "starboard (default)"], ...form.turn_sides.map((s) => [s.side, s.label])], "", { role: "drop-side" });
      box.append(labelled("Drop out of the line", ship, `${base}/drop`), labelled("turning to", side));
    }
    if (d.flag_to.length) {
      const ship = select([["", "none"], ...d.flag_to.map((s) => [s, s])], "", { role: "flag" });
      box.append(labelled("Transfer the flag to", ship, `${base}/flag`));
    }
    const sig = select([["", "none"], ...form.signals.map((s) => [s.message, s.label])], "", { role: "signal" });
    const sigSide = select(form.turn_sides.map((s) => [s.side, s.label]), "S", { role: "signal-side" });
    const sideRow = labelled("to", sigSide);
    sideRow.hidden = true;
    sig.addEventListener("change", () => {
      const chosen = form.signals.find((s) => s.message === sig.value);
      sideRow.hidden = !(chosen && chosen.needs_side);
    });
    box.append(labelled("Fleet signal", sig, `${base}/signal`), sideRow);
    out.push(box);
  }
  return out;
}

export function turnRow(form, base, i) {
  const field = `${base}/turn/${i}`;
  const row = el("fieldset", { class: "forms-turn", dataset: { field } });
  row.append(el("legend", { text: `Turn ${i + 1}` }));
  const mode = select(form.turn_modes.map((m) => [m.mode, m.label]), "TS", { role: "mode" });
  const deg = el("input", { type: "number", min: 1, max: form.max_turn_deg, step: 1, inputmode: "numeric", dataset: { role: "degrees" } });
  const side = select(form.turn_sides.map((s) => [s.side, s.label]), "S", { role: "side" });
  const drop = el("button", { type: "button", class: "forms-remove", text: "Remove" });
  drop.addEventListener("click", () => {
    const form = row.closest("form");
    const rows = row.parentElement;
    row.remove();
    [...rows.children].forEach((r, k) => {
      // the rows after it move up: their fields follow (compose numbers the turns in order)
      r.dataset.field = `${base}/turn/${k}`;
      r.querySelector("legend").textContent = `Turn ${k + 1}`;
      r.querySelector(".forms-problem").dataset.problemFor = `${base}/turn/${k}`;
    });
    if (form) form.dispatchEvent(new Event("input", { bubbles: true }));
  });
  row.append(labelled("Turn", mode), labelled("degrees", deg), labelled("to", side), drop, problemSlot(field));
  return row;
}

function gunneryForm(form) {
  const out = [];
  for (const ship of form.ships) {
    const box = el("fieldset", { class: "forms-unit", dataset: { ship: ship.name } });
    box.append(el("legend", { text: `${ship.name} (${ship.cls})` }));
    const guns = ship.mountings.map(
      (m) => `${m.key}: ${m.in_action}/${m.guns}×${m.calibre_cm} cm, ROF ${m.rof}${m.loading ? " (loading)" : ""}`,
    );
    box.append(el("p", { class: "forms-note", text: guns.join("; ") }));
    if (ship.silent) {
      box.append(el("p", { class: "forms-note", text: `Does not fire: ${ship.silent}.` }));
    } else if (!ship.targets.length) {
      box.append(el("p", { class: "forms-note", text: "No enemy ship in sight." }));
    }
    for (const t of ship.targets) box.append(targetBox(form, ship, t));
    out.push(box);
  }
  return out;
}

function targetBox(form, ship, t) {
  const base = `gunnery/${ship.name}/${t.name}`;
  const box = el("fieldset", { class: "forms-target", dataset: { target: t.name, field: base } });
  box.append(el("legend", { text: `at ${t.name} (${t.cls}, ${t.type})` }), problemSlot(base));
  if (!t.mounts.length) {
    box.append(el("p", { class: "forms-note", text: "No gun bears." }));
    return box;
  }
  const est = el("input", { type: "number", min: 1, step: 50, inputmode: "numeric", dataset: { role: "estimate" } });
  box.append(labelled("Range estimate (m)", est, `${base}/estimate`));
  const ammo = el("div", { class: "forms-radios", role: "radiogroup", "aria-label": "ammunition" });
  const group = uid();
  for (const a of form.ammo) {
    const r = el("input", { type: "radio", name: group, value: a.value, checked: a.value === "HE", dataset: { role: "ammo" } });
    r.id = uid();
    ammo.append(r, el("label", { for: r.id, text: a.label }));
  }
  box.append(ammo);
  const rounds = [];
  for (const m of t.mounts) {
    const s = select([[0, "0"]], 0, { role: "rounds", mount: m.key });
    rounds.push([s, m]);
    box.append(labelled(`${m.key} (${m.guns} bearing) rounds`, s, `${base}/rounds/${m.key}`));
  }
  const fill = () => {
    // The choices of the bracket the estimate falls in (the first while none is given).
    const e = Number(est.value) || 0;
    for (const [s, m] of rounds) {
      const keep = Number(s.value);
      const row = m.rounds.find((r) => e <= r.upto_m) || { choices: [] };
      s.replaceChildren(el("option", { value: 0, text: "0" }), ...row.choices.map((n) => el("option", { value: n, text: String(n) })));
      s.value = String(row.choices.includes(keep) ? keep : 0);
    }
  };
  est.addEventListener("input", fill);
  fill();
  return box;
}

function torpedoForm(form) {
  const out = [];
  for (const ship of form.ships) {
    const box = el("fieldset", { class: "forms-unit", dataset: { ship: ship.name } });
    box.append(el("legend", { text: `${ship.name} (${ship.cls})` }));
    for (const m of ship.mounts) {
      const field = `torpedo/${ship.name}/${m.key}`;
      const arcs = m.arcs.map(([a, b]) => `${a}°–${b}°`).join(", ");
      const row = el("fieldset", { class: "forms-target", dataset: { mount: m.key, field } });
      row.append(el("legend", { text: `${m.key} tubes (${m.position}): ${m.left} left, arcs ${arcs}, range ${m.range_m} m` }));
      const names = form.targets.map((n) => [n, m.targets.includes(n) ? `${n} (in arc)` : n]);
      const target = select([["", "no launch"], ...names], "", { role: "target" });
      const counts = Array.from({ length: m.most }, (_, i) => [i + 1, String(i + 1)]);
      const count = select(counts, 1, { role: "count" });
      row.append(labelled("Launch at", target, field), labelled("torpedoes", count));
      box.append(row);
    }
    out.push(box);
  }
  return out;
}

function damageForm(form) {
  const out = [];
  for (const ship of form.ships) {
    const base = `damage/${ship.name}`;
    const box = el("fieldset", { class: "forms-unit", dataset: { ship: ship.name, field: base } });
    box.append(el("legend", { text: `${ship.name} (${ship.cls}): ${ship.dice} damage-control dice` }), problemSlot(base));
    for (const d of ship.offered) {
      const counts = Array.from({ length: d.most + 1 }, (_, i) => [i, String(i)]);
      const s = select(counts, 0, { role: "declare", code: d.code });
      box.append(labelled(`${d.label} (${d.code}), dice`, s, `${base}/${d.code}`));
    }
    out.push(box);
  }
  return out;
}

function dbaMoveForm(form) {
  const out = [];
  const nips = Object.entries(form.nips).map(([q, n]) => `${q} ${n}`).join(", ");
  if (nips) out.push(el("p", { class: "forms-note", text: `NIPs this spell: ${nips}.` }));
  for (const u of form.units) {
    const base = `dba-move/${u.name}`;
    const what = u.squadron ? `squadron: ${u.members.join(", ")}` : "ship";
    const box = el("fieldset", { class: "forms-unit", dataset: { unit: u.name, field: base } });
    box.append(el("legend", { text: `${u.name} (${what})` }), problemSlot(base));
    const actions = [["", "no order"], ...u.actions.map((a) => [a, a])];
    if (u.may_ram) actions.push(["ram", "ram"]);
    box.append(labelled("Order", select(actions, "", { role: "action" }), `${base}/action`));
    const deg = el("input", { type: "number", min: 0, max: form.max_turn_deg, step: 1, inputmode: "numeric", dataset: { role: "degrees" } });
    box.append(labelled("turn (degrees)", deg, `${base}/degrees`));
    box.append(labelled("to", select([["S", "starboard"], ["P", "port"]], "S", { role: "side" })));
    box.append(labelled("bases", select(u.bases.map((k) => [k, String(k)]), u.bases[u.bases.length - 1] ?? 0, { role: "bases" }), `${base}/bases`));
    if (u.squadron) box.append(labelled("in succession", el("input", { type: "checkbox", dataset: { role: "succession" } })));
    if (u.may_ram) {
      box.append(labelled("ram", select([["", "none"], ...form.targets.map((t) => [t, t])], "", { role: "ram" }), `${base}/target`));
    }
    out.push(box);
  }
  return out;
}

function dbaFireForm(form) {
  const out = [];
  const targets = [["", "none"], ...form.targets.map((t) => [t, t])];
  for (const ship of form.ships) {
    const base = `dba-fire/${ship.name}`;
    const box = el("fieldset", { class: "forms-unit", dataset: { ship: ship.name, field: base } });
    box.append(el("legend", { text: `${ship.name} (AF ${ship.af})` }), problemSlot(base));
    box.append(labelled("Gunfire at", select(targets, "", { role: "gun" }), `${base}/gun/0`));
    box.append(labelled("second target", select(targets, "", { role: "gun" }), `${base}/gun/1`));
    if (ship.torpedo.length) {
      box.append(labelled("Torpedo attack at", select(targets, "", { role: "torpedo-target" }), `${base}/torpedo`));
      box.append(labelled("factor", select(ship.torpedo.map((n) => [n, String(n)]), ship.torpedo[0], { role: "torpedo-factor" })));
    }
    out.push(box);
  }
  return out;
}

function tgdFireForm(form) {
  const out = [];
  for (const ship of form.ships) {
    const base = `tgd-fire/${ship.name}`;
    const box = el("fieldset", { class: "forms-unit", dataset: { ship: ship.name, field: base } });
    box.append(el("legend", { text: ship.name }), problemSlot(base));
    box.append(el("p", { class: "forms-note", text: `Ready: ${ship.ready.join(", ")}` }));
    box.append(labelled("Fire at", select([["", "no fire"], ...form.targets.map((t) => [t, t])], "", { role: "target" }), base));
    box.append(labelled("guns of strength", select(ship.strengths.map((n) => [n, String(n)]), ship.strengths[0], { role: "strength" }), `${base}/strength`));
    const arcs = el("fieldset", { class: "forms-radios" });
    arcs.append(el("legend", { text: "arcs (none: all that bear)" }));
    for (const a of form.arcs) {
      const c = el("input", { type: "checkbox", value: a, dataset: { role: "arc" } });
      c.id = uid();
      arcs.append(c, el("label", { for: c.id, text: a }));
    }
    box.append(arcs);
    out.push(box);
  }
  return out;
}

export const BUILD = { command: commandForm, gunnery: gunneryForm, torpedo: torpedoForm, damage: damageForm,
  "dba-move": dbaMoveForm, "dba-fire": dbaFireForm, "tgd-fire": tgdFireForm };

// -- reading the filled form -----------------------------------------------------------------

const pick = (node, role) => node.querySelector(`[data-role="${role}"]`);

/** The filled form of phase ``kind`` read from the page, as POST /compose takes it. */
export function filled(kind, root) {
  const units = [...root.querySelectorAll(".forms-unit")];
  if (kind === "command") {
    const divisions = {};
    for (const box of units) {
      const get = (role) => (pick(box, role) ? pick(box, role).value : "");
      divisions[box.dataset.division] = {
        speed: get("speed") || null,
        turns: [...box.querySelectorAll(".forms-turn")].map((row) => ({
          mode: pick(row, "mode").value,
          degrees: pick(row, "degrees").value,
          side: pick(row, "side").value,
        })),
        stop: pick(box, "stop").checked,
        drop: get("drop") ? { ship: get("drop"), side: get("drop-side") || null } : null,
        flag: get("flag") || null,
        signal: get("signal") ? { message: get("signal"), side: get("signal-side") } : null,
      };
    }
    return { divisions };
  }
  if (kind === "dba-move") {
    const moves = {};
    for (const box of units) {
      const get = (role) => (pick(box, role) ? pick(box, role).value : "");
      moves[box.dataset.unit] = {
        action: get("action"),
        degrees: get("degrees"),
        side: get("side"),
        bases: get("bases"),
        succession: pick(box, "succession") ? pick(box, "succession").checked : false,
        target: get("ram") || null,
      };
    }
    return { units: moves };
  }
  const ships = {};
  for (const box of units) {
    const name = box.dataset.ship;
    if (kind === "gunnery") {
      ships[name] = {
        targets: [...box.querySelectorAll(".forms-target")].map((t) => {
          const rounds = {};
          for (const s of t.querySelectorAll('[data-role="rounds"]')) rounds[s.dataset.mount] = Number(s.value);
          const ammo = t.querySelector('[data-role="ammo"]:checked');
          const est = pick(t, "estimate");
          return { target: t.dataset.target, estimate: est ? est.value : "", ammo: ammo ? ammo.value : "HE", rounds };
        }),
      };
    } else if (kind === "torpedo") {
      ships[name] = {
        launches: [...box.querySelectorAll(".forms-target")].map((row) => ({
          mount: row.dataset.mount,
          target: pick(row, "target").value,
          count: pick(row, "count").value,
        })),
      };
    } else if (kind === "tgd-fire") {
      ships[name] = {
        target: pick(box, "target").value,
        strength: pick(box, "strength").value,
        arcs: [...box.querySelectorAll('[data-role="arc"]:checked')].map((c) => c.value),
      };
    } else if (kind === "dba-fire") {
      const get = (role) => (pick(box, role) ? pick(box, role).value : "");
      ships[name] = {
        guns: [...box.querySelectorAll('[data-role="gun"]')].map((s) => s.value),
        torpedo: { target: get("torpedo-target"), factor: get("torpedo-factor") },
      };
    } else if (kind === "damage") {
      const counts = {};
      for (const s of box.querySelectorAll('[data-role="declare"]')) counts[s.dataset.code] = Number(s.value);
      ships[name] = counts;
    }
  }
  return { ships };
}
