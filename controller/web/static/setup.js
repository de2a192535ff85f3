// The Setup page: the config's settings, checked by the table, saved or started.
"use strict";
let choices = null;

function fill(select, values, labels, chosen) {
  select.textContent = "";
  values.forEach((value, index) => {
    const option = el("option", { value, text: labels ? labels[index] : value });
    if (String(value) === String(chosen)) option.selected = true;
    select.append(option);
  });
}

// A rule set by its name in the page's language (the server sends its id).
function presetName(game, preset) {
  const key = "preset." + game + "." + preset;
  const found = t(key);
  return found === key ? preset : found;
}

function showPresets(chosen) {
  const game = $("game").value;
  const presets = choices.games[game] || [];
  const name = (preset) => presetName(game, preset);
  fill($("preset"), ["", ...presets], [t("setup.default_preset", { preset: name(choices.default_presets[game]) }), ...presets.map(name)], chosen);
}

// The named players (the Players page keeps them) and who sat where last time.
let players = [];
let lastPeople = {};
const PERSON_SEATS = ["human", "phone", "coached"];

// A seat's name is asked only where a person plays and the family keeps names.
function showNames() {
  document.querySelectorAll("#seats select.kind").forEach((select, index) => {
    $("who" + index).hidden = !players.length || !PERSON_SEATS.includes(select.value);
  });
}

// The names that sat at this game's seats when it was last begun (guests elsewhere).
function proposeNames() {
  const last = lastPeople[$("game").value] || [];
  const kept = new Set(players.map((p) => p.id));
  document.querySelectorAll("#seats select.who").forEach((select, index) => {
    select.value = kept.has(last[index]) ? last[index] : "";
  });
}

// Each seat's named player's id, or null for a guest (and for a seat without a person).
function people() {
  return [...document.querySelectorAll("#seats select.who")].map((s) => (s.hidden || !s.value ? null : s.value));
}

function values() {
  const seats = [...document.querySelectorAll("#seats select.kind")].map((s) => s.value);
  return {
    game: $("game").value, preset: $("preset").value, seats, bot: $("bot").value,
    move_timer_s: parseNumber($("move_timer_s").value), brightness: parseNumber($("brightness").value),
    sleep_after_min: parseNumber($("sleep_after_min").value), language: $("language").value,
  };
}

// Each error beside its field, and the field marked: its label in the error colour,
// the control outlined and aria-invalid, described by the error. Returns the labels
// of the fields marked, for the line under the buttons.
function showErrors(errors) {
  for (const node of document.querySelectorAll(".error")) node.textContent = "";
  for (const node of document.querySelectorAll(".invalid")) node.classList.remove("invalid");
  for (const node of document.querySelectorAll("[aria-invalid]")) {
    node.removeAttribute("aria-invalid"); node.removeAttribute("aria-describedby");
  }
  const marked = [];
  let first = null;
  for (const [field, lines] of Object.entries(errors || {})) {
    const target = $("err-" + field) || $("err-form");
    target.textContent = lines.join("; ");
    const control = field === "seats" ? document.querySelector("#seats select.kind") : field === "form" ? null : $(field);
    const box = field === "seats" ? $("seats") : control ? control.closest(".field") : null;
    if (box) box.classList.add("invalid");
    const controls = field === "seats" ? [...document.querySelectorAll("#seats select.kind")] : control ? [control] : [];
    for (const node of controls) {
      node.setAttribute("aria-invalid", "true"); node.setAttribute("aria-describedby", target.id);
    }
    if (control && !first) first = control;
    const label = field === "seats" ? document.querySelector("#seats legend") : document.querySelector("label[for='" + field + "']");
    if (label) marked.push(label.firstChild.textContent.trim());
  }
  if (first) first.focus();
  return marked;
}

async function send(action) {
  $("setup-message").textContent = "";
  const body = { action, values: values() };
  if (action === "start") body.people = people();
  const { status, data } = await postJSON("/api/setup", body);
  const marked = showErrors(data.errors);
  if (status === 200) {
    $("setup-message").textContent = action === "save" ? t("setup.saved", { path: data.saved })
      : t("setup.started", { game: choices.titles[data.started] || data.started, preset: presetName(data.started, data.preset) });
  } else if (!data.errors) {
    $("setup-message").textContent = data.error || t("setup.refused");
  } else {
    const what = t(action === "save" ? "setup.not_saved" : "setup.not_started");
    $("setup-message").textContent = marked.length ? t("setup.marked", { what, fields: marked.join(", ") }) : what;
  }
}

async function start() {
  await loadSession();
  $("unpaired").hidden = page.paired;
  const setup = await getJSON("/api/setup");
  choices = setup.choices;
  const v = setup.values;
  const games = Object.keys(choices.games);
  fill($("game"), games, games.map((game) => choices.titles[game] || game), v.game);
  showPresets(v.preset);
  $("game").onchange = () => { showPresets(""); proposeNames(); };
  players = setup.players || [];
  lastPeople = setup.last_people || {};
  const seats = $("seats");
  v.seats.forEach((kind, index) => {
    const select = el("select", { id: "seat" + index, name: "seat" + index, class: "kind" });
    fill(select, choices.players, choices.players.map((p) => t("player." + p)), kind);
    select.onchange = showNames;
    const who = el("select", { id: "who" + index, name: "who" + index, class: "who", "aria-label": t("setup.who", { n: index + 1 }) });
    fill(who, ["", ...players.map((p) => p.id)], [t("setup.guest"), ...players.map((p) => p.name)], "");
    seats.append(el("div", { class: "field" }, el("label", { for: "seat" + index, text: t("setup.seat", { n: index + 1 }) }), " ", select,
      " ", who, el("span", { class: "error", id: "err-seat" + index })));
  });
  proposeNames();
  showNames();
  fill($("bot"), choices.bots, choices.bots.map((bot) => t("bot." + bot)), v.bot);
  for (const id of ["move_timer_s", "brightness", "sleep_after_min"]) {
    $(id).value = typeof v[id] === "number" ? Number(v[id]).toLocaleString(LANG, { useGrouping: false, maximumFractionDigits: 4 }) : (v[id] ?? "");
  }
  fill($("language"), ["", ...choices.languages], [t("setup.locale"), ...choices.languages.map((code) => t("language." + code))], v.language);
  if (!choices.language_key) $("language-note").textContent = t("setup.no_language_key");
  $("saves-to").textContent = setup.saves_to ? t("setup.saves_to", { path: setup.saves_to }) : t("setup.no_file");
  for (const id of ["start", "save"]) $(id).disabled = !page.paired;
  $("save").disabled = !page.paired || !setup.saves_to;
  $("setup-form").onsubmit = (event) => { event.preventDefault(); send("save"); };
  $("start").onclick = () => send("start");
}
start().catch((error) => { $("err-form").textContent = error.message; });
