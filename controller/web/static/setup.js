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
  fill($("preset"), ["", ...presets], [t("setup.default_preset", { preset: choices.default_presets[game] }), ...presets], chosen);
}

function values() {
  const seats = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  return {
    game: $("game").value, preset: $("preset").value, seats, bot: $("bot").value,
    move_timer_s: parseNumber($("move_timer_s").value), brightness: parseNumber($("brightness").value),
    sleep_after_min: parseNumber($("sleep_after_min").value), language: $("language").value,
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
    $("setup-message").textContent = action === "save" ? t("setup.saved", { path: data.saved })
      : t("setup.started", { game: data.started, preset: data.preset });
  } else if (!data.errors) {
    $("setup-message").textContent = data.error || t("setup.refused");
  } else {
    $("setup-message").textContent = t(action === "save" ? "setup.not_saved" : "setup.not_started");
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
  $("game").onchange = () => showPresets("");
  const seats = $("seats");
  v.seats.forEach((kind, index) => {
    const select = el("select", { id: "seat" + index, name: "seat" + index });
    fill(select, choices.players, choices.players.map((p) => t("player." + p)), kind);
    seats.append(el("div", { class: "field" }, el("label", { for: "seat" + index, text: t("setup.seat", { n: index + 1 }) }), " ", select,
      el("span", { class: "error", id: "err-seat" + index })));
  });
  fill($("bot"), choices.bots, null, v.bot);
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
