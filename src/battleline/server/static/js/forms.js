// The page's order forms: one form per phase, built from the data the server's ruleset gives
// (GET /forms). The form holds no rules and no notation grammar: the server writes the notation
// (POST /compose, shown live under the form), checks it (POST /check) and seals it (POST /orders),
// and answers every problem at once, each with the field it belongs to. The notation box of the
// #orders section stays for editing the text by hand, and for phases without a form.

import { BUILD, el, filled as read, turnRow } from "./forms_phases.js";

const COMPOSE_MS = 250;
let app = null;
let root = null;
let data = null; // the last GET /forms answer
let timer = null;
let asked = 0; // the number of the latest GET /forms sent

// -- talking to the server -------------------------------------------------------------------

function showProblems(problems) {
  for (const slot of root.querySelectorAll(".forms-problem")) slot.textContent = "";
  for (const row of root.querySelectorAll(".forms-bad")) row.classList.remove("forms-bad");
  const general = root.querySelector(".forms-general");
  general.replaceChildren();
  for (const p of problems) {
    let slot = p.field ? root.querySelector(`[data-problem-for="${CSS.escape(p.field)}"]`) : null;
    let field = p.field;
    while (!slot && field && field.includes("/")) {
      field = field.slice(0, field.lastIndexOf("/")); // the nearest enclosing field shown
      slot = root.querySelector(`[data-problem-for="${CSS.escape(field)}"]`);
    }
    if (slot) {
      slot.textContent = slot.textContent ? `${slot.textContent} ${p.message}` : p.message;
      const row = slot.closest("[data-field]");
      if (row) row.classList.add("forms-bad");
    } else {
      general.append(el("li", { text: p.message }));
    }
  }
}

async function compose() {
  if (!data || !data.form) return null;
  let answer;
  try {
    answer = await app.api("/compose", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ turn: data.turn, phase: data.phase, form: filled() }),
    });
  } catch (_) {
    root.querySelector(".forms-status").textContent =
      "The server cannot be reached; what you filled in is kept.";
    return null;
  }
  const { response, body } = answer;
  if (!response.ok) {
    showProblems([{ field: null, message: (body && body.detail) || `the server answered ${response.status}` }]);
    return null;
  }
  root.querySelector(".forms-notation").textContent = body.text || "(no orders for this phase)";
  showProblems(body.problems);
  return body;
}

const filled = () => read(data.form.kind, root);

function changed() {
  clearTimeout(timer);
  timer = setTimeout(compose, COMPOSE_MS);
  if (app.saveDraft) app.saveDraft("form", snapshot()); // kept across a reload or an outage
}

// -- the draft: what is filled in, kept by the shell (app.saveDraft/loadDraft) per phase ------

const value = (c) => (c.type === "checkbox" || c.type === "radio" ? c.checked : c.value);

function snapshot() {
  const form = root.querySelector(".forms-form");
  return {
    turns: [...root.querySelectorAll('[data-role="turns"]')].map((t) => t.children.length),
    values: form ? [...form.querySelectorAll("select, input")].map(value) : [],
  };
}

function restore(draft) {
  if (!draft || !Array.isArray(draft.values) || !Array.isArray(draft.turns)) return;
  root.querySelectorAll('[data-role="turns"]').forEach((rows, i) => {
    const base = rows.closest(".forms-unit").dataset.field;
    for (let k = 0; k < (draft.turns[i] || 0); k++) rows.append(turnRow(data.form, base, k));
  });
  const controls = [...root.querySelectorAll(".forms-form select, .forms-form input")];
  if (controls.length !== draft.values.length) return; // another form: start afresh
  controls.forEach((c, i) => {
    if (c.type === "checkbox" || c.type === "radio") c.checked = draft.values[i] === true;
    else c.value = draft.values[i];
    c.dispatchEvent(new Event("input", { bubbles: true })); // the estimate sets the rounds offered
    c.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

async function send(path) {
  clearTimeout(timer);
  const made = await compose();
  if (!made) return;
  if (made.problems.length) {
    app.say("The form has problems; nothing was sent.", "error");
    return;
  }
  const payload = { turn: data.turn, phase: data.phase, lines: made.lines, fields: made.fields };
  let answer;
  try {
    answer = await app.api(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
    });
  } catch (_) {
    app.say("The server cannot be reached; nothing was sent.", "error");
    if (path === "/orders") app.emit("unsent", { path, orders: payload }); // the live part queues it
    return;
  }
  const { response, body } = answer;
  if (response.ok) {
    showProblems([]);
    const sealed = path === "/orders";
    const text = sealed
      ? body.resolved ? "Sealed; the phase has resolved." : "Sealed. Waiting for the other side…"
      : "The umpire accepts these orders (not yet sealed).";
    root.querySelector(".forms-status").textContent = text;
    app.say(text, "ok");
    if (sealed) {
      if (app.saveDraft) app.saveDraft("form", null);
      await app.refresh();
      // A resolved phase: the refresh sees the new phase, whose "phase" event loads the form.
      // Sealed only: the phase stays, so no event; load the form to show it sealed.
      if (!body.resolved) await load();
    }
    return;
  }
  const problems = (body && body.problems) || [{ field: null, message: (body && body.detail) || `the server answered ${response.status}` }];
  showProblems(problems);
  const n = problems.length;
  root.querySelector(".forms-status").textContent = `${n} problem${n > 1 ? "s" : ""}; nothing was sealed.`;
  app.say((body && body.detail) || "refused", "error");
}

async function load() {
  const mine = ++asked;
  const { response, body } = await app.api("/forms");
  if (mine !== asked) return; // a newer load was sent meanwhile: its answer is the one to show
  if (!response.ok) return;
  // The same phase and form as shown (a second load for one change): keep what is filled in.
  if (data && JSON.stringify(body) === JSON.stringify(data)) return;
  data = body;
  render();
}

function render() {
  root.hidden = false;
  const form = data.form;
  const title = el("h3", { text: `Orders by form: turn ${data.turn}, ${data.phase} phase` });
  const status = el("p", { class: "forms-status", role: "status" });
  const parts = [title];
  if (data.finished) {
    parts.push(el("p", { class: "forms-note", text: "The battle is over." }));
  } else if (data.sealed) {
    parts.push(el("p", { class: "forms-note forms-sealed", text: "Your orders for this phase are sealed. Waiting for the other side…" }));
  } else if (!data.waiting) {
    parts.push(el("p", { class: "forms-note", text: "Nothing for you to order in this phase." }));
  } else if (!form) {
    parts.push(el("p", { class: "forms-note", text: `No form for this phase: write the orders in the notation box. ${data.help || ""}` }));
  }
  const usable = form && data.waiting && !data.sealed && !data.finished;
  const body = el("form", { class: "forms-form", novalidate: true });
  if (usable) {
    body.append(...BUILD[form.kind](form));
    body.addEventListener("input", changed);
    body.addEventListener("change", changed);
    body.addEventListener("submit", (ev) => ev.preventDefault());
    const check = el("button", { type: "button", class: "forms-check", text: "Check" });
    const seal = el("button", { type: "button", class: "forms-seal", text: "Seal orders" });
    check.addEventListener("click", () => send("/check"));
    seal.addEventListener("click", () => send("/orders"));
    parts.push(
      body,
      el("h4", { text: "Your orders in the notation" }),
      el("pre", { class: "forms-notation", "aria-live": "polite" }),
      el("div", { class: "buttons" }, check, seal),
    );
  }
  parts.push(status, el("ul", { class: "forms-general", role: "alert" }));
  root.replaceChildren(...parts);
  if (usable && app.loadDraft) restore(app.loadDraft("form"));
  if (usable) compose();
}

/** Hook this part into the page's shared `app` (see main.js). */
export function mount(shared) {
  app = shared;
  root = app.$("forms-part");
  app.on("phase", () => {
    if (app.seat.game) load();
  });
}
