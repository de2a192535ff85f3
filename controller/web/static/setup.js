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

function showPresets(chosen) {
  const game = $("game").value;
  const presets = choices.games[game] || [];
  fill($("preset"), ["", ...presets], ["default (" + choices.default_presets[game] + ")", ...presets], chosen);
}

function number(text) {
  const trimmed = String(text).trim();
  const value = Number(trimmed);
  return trimmed !== "" && Number.isFinite(value) ? value : trimmed;  // the table names what is wrong
}

function values() {
  const seats = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  return {
    game: $("game").value, preset: $("preset").value, seats, bot: $("bot").value,
    move_timer_s: number($("move_timer_s").value), brightness: number($("brightness").value),
    sleep_after_min: number($("sleep_after_min").value), language: $("language").value,
  };
}

function showErrors(errors) {
  for (const node of document.querySelectorAll(".error")) node.textContent = "";
  for (const [field, lines] of Object.entries(errors || {})) {
    const target = $("err-" + field) || $("err-form");
    target.textContent = lines.join("; ");
  }
}

async function send(action) {
  $("setup-message").textContent = "";
  const { status, data } = await postJSON("/api/setup", { action, values: values() });
  showErrors(data.errors);
  if (status === 200) {
    $("setup-message").textContent = action === "save" ? "saved to " + data.saved + " (used from the next start)"
      : "started " + data.started + " (" + data.preset + ") on the table";
  } else if (!data.errors) {
    $("setup-message").textContent = data.error || "refused";
  } else {
    $("setup-message").textContent = "not " + (action === "save" ? "saved" : "started") + ": see the fields marked";
  }
}

async function start() {
  await loadSession();
  $("unpaired").hidden = page.paired;
  const setup = await getJSON("/api/setup");
  choices = setup.choices;
  const v = setup.values;
  fill($("game"), Object.keys(choices.games), null, v.game);
  showPresets(v.preset);
  $("game").onchange = () => showPresets("");
  const seats = $("seats");
  v.seats.forEach((kind, index) => {
    const select = el("select", { id: "seat" + index, name: "seat" + index });
    fill(select, choices.players, null, kind);
    seats.append(el("div", { class: "field" }, el("label", { for: "seat" + index, text: "Seat " + (index + 1) }), " ", select,
      el("span", { class: "error", id: "err-seat" + index })));
  });
  fill($("bot"), choices.bots, null, v.bot);
  $("move_timer_s").value = v.move_timer_s;
  $("brightness").value = v.brightness;
  $("sleep_after_min").value = v.sleep_after_min;
  fill($("language"), ["", ...choices.languages], ["as the system's locale", ...choices.languages], v.language);
  if (!choices.language_key) $("language-note").textContent = "(this version of the table has no language setting yet)";
  $("saves-to").textContent = setup.saves_to ? "Saving writes " + setup.saves_to + " (its comments are not kept)." : "No config file: the simulator can start a game, not save.";
  for (const id of ["start", "save"]) $(id).disabled = !page.paired;
  $("save").disabled = !page.paired || !setup.saves_to;
  $("setup-form").onsubmit = (event) => { event.preventDefault(); send("save"); };
  $("start").onclick = () => send("start");
}
start().catch((error) => { $("err-form").textContent = error.message; });
