// The History page: the kept games, a game's replay stepped frame by frame, statistics.
"use strict";
let current = null;  // {id, game, frames, moves}
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function query() {
  const params = new URLSearchParams();
  for (const [name, id] of [["game", "f-game"], ["player", "f-player"], ["from", "f-from"], ["to", "f-to"]]) {
    if ($(id).value) params.set(name, $(id).value);
  }
  return params.toString();
}

// The server sends ids ("backgammon", "money", "orange bot (strong)"); the page shows
// them in its language, as the panel names them.
function word(key, fallback) { const found = t(key); return found === key ? fallback : found; }
function gameName(game) { return word("game." + game, game); }
function presetName(game, preset) { return preset ? word("preset." + game + "." + preset, preset) : ""; }
function colourName(colour) { return word("colour." + colour, colour); }

// A player id is "<colour> <kind>" or "<colour> bot (<bot kind>)" (history_data.players_of).
function playerName(id) {
  const parts = /^(\S+) (\S+)(?: \((\S+)\))?$/.exec(id);
  if (!parts) return id;
  const kind = word("player." + parts[2], parts[2]);
  return colourName(parts[1]) + " " + kind + (parts[3] ? " (" + word("bot." + parts[3], parts[3]) + ")" : "");
}

// A named player by name, with the colour and kind they played ("Anna (red human)").
function personAndPlayer(game, side, id) {
  const name = game.names && game.names[side];
  return name ? name + " (" + playerName(id) + ")" : playerName(id);
}

function resultText(game) {
  if (game.outcome !== "finished") return t("history.abandoned");
  return game.winner ? t("history.won", { winner: colourName(game.winner_colour || game.winner) }) : t("history.finished");
}

// A move the rules name by a word ("double"), in the game's words; a position as is.
function moveWord(notation) {
  return word("move." + current.game + "." + notation, word("move." + notation, notation));
}

function moveText(move) {
  if (move.opening) return t("history.opening", { throws: move.opening.map(([side, die]) => colourName(side) + " " + die).join(", ") });
  if (move.dice) return colourName(move.player) + ": " + t("history.rolls", { dice: move.dice.join("-") });
  return colourName(move.player) + ": " + moveWord(move.move);
}

function fillOnce(select, values, label) {
  const chosen = select.value;
  while (select.options.length > 1) select.remove(1);
  for (const value of values) select.append(el("option", { value, text: label(value) }));
  select.value = chosen;
}

async function showList() {
  $("history-message").textContent = "";
  let data;
  try { data = await getJSON("/api/history?" + query()); } catch (error) {
    $("history-message").textContent = error.message; return;
  }
  fillOnce($("f-game"), data.game_names, gameName);
  fillOnce($("f-player"), data.players, playerName);
  $("count").textContent = data.matched > data.shown ? t("history.newest_shown", { n: num(data.matched), shown: num(data.shown) })
    : t(data.matched === 1 ? "history.count_one" : "history.count", { n: num(data.matched) });
  const body = document.querySelector("#games tbody");
  body.textContent = "";
  for (const game of data.games) {
    // the date is a button: a row opens from the keyboard (Tab, Enter) as by a tap
    const open = el("button", { type: "button", class: "open", text: when(game.ended), "aria-label": t("history.open", { id: game.id }) + ": " + when(game.ended) });
    const row = el("tr", { "data-id": game.id },
      el("td", { class: "n", text: game.id }), el("td", {}, open),
      el("td", { text: [gameName(game.game), presetName(game.game, game.preset)].filter(Boolean).join(" · ") }),
      el("td", { text: Object.entries(game.players).map(([side, id]) => personAndPlayer(game, side, id)).join(", ") }),
      el("td", { text: resultText(game) }), el("td", { class: "moves", text: num(game.moves) }));
    row.onclick = () => openGame(game.id);
    body.append(row);
  }
  showStats();
}

async function openGame(id) {
  let data;
  try { data = await getJSON("/api/history/" + id); } catch (error) {
    $("history-message").textContent = error.message; return;
  }
  current = { id, game: data.game.game, frames: data.frames, moves: data.moves };
  $("detail").hidden = false;
  $("detail-title").textContent = t("history.detail", { id, game: gameName(data.game.game), preset: presetName(data.game.game, data.game.preset), result: resultText(data.game) });
  $("download-json").href = "/api/history/" + id + "/game.json";
  $("download-mat").hidden = !data.game.has_mat;
  $("download-mat").href = "/api/history/" + id + "/game.mat";
  const list = $("moves");
  list.textContent = "";
  for (const move of data.moves) {
    const item = el("li", { text: moveText(move) });
    item.onclick = () => step(move.n);
    list.append(item);
  }
  $("step").max = String(data.frames - 1);
  step(0);
  $("detail").scrollIntoView();
}

function step(number) {
  if (!current) return;
  const n = Math.max(0, Math.min(current.frames - 1, number));
  $("step").value = String(n);
  $("replay").src = "/api/history/" + current.id + "/frame/" + n + ".png";
  $("replay").dataset.step = String(n);
  const move = current.moves[n - 1];
  const total = current.frames - 1;
  let what = t("history.start");
  if (n > 0 && move.opening) what = t("history.step_opening", { n, total, what: moveText(move) });
  else if (n > 0) {
    what = t("history.step_of", {
      n, total, player: colourName(move.player),
      what: move.dice ? t("history.rolls", { dice: move.dice.join("-") }) : moveWord(move.move) !== move.move ? moveWord(move.move) : t("history.plays", { move: move.move }),
    });
  }
  $("step-text").textContent = what;
  const list = $("moves");
  list.querySelectorAll("li").forEach((item, index) => item.classList.toggle("now", index === n - 1));
  // the move list follows the step, scrolling only itself (not the page)
  const now = list.querySelector("li.now");
  if (!now) { list.scrollTop = 0; return; }
  const top = now.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top + now.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - (list.clientHeight - now.offsetHeight) / 2);
  }
}

function bars(values, labels, options) {
  // A plain SVG bar chart; options.expected draws a dashed line at that height.
  const width = 320, height = 100, pad = 24, room = 14;
  const top = Math.max(1, ...values, options.expected || 0);
  const chart = svg("svg", { viewBox: `0 ${-room} ${width} ${height + pad + room}`, class: "chart", role: "img", "aria-label": options.title });
  const slot = (width - pad) / values.length;
  values.forEach((value, index) => {
    const h = (value / top) * height;
    const x = pad + index * slot + slot * 0.15;
    chart.append(svg("rect", { x, y: height - h, width: slot * 0.7, height: h, fill: (options.colours || [])[index] || "#6ab" }));
    chart.append(svg("text", { x: x + slot * 0.35, y: height + 16, "text-anchor": "middle" }, labels[index]));
    chart.append(svg("text", { x: x + slot * 0.35, y: height - h - 3, "text-anchor": "middle", class: "value" }, num(value)));
  });
  if (options.expected) {
    const y = height - (options.expected / top) * height;
    chart.append(svg("line", { x1: pad, x2: width, y1: y, y2: y, class: "expected" }));
    chart.append(svg("text", { x: 2, y: y - 2, class: "value" }, t("history.expected")));
  }
  return chart;
}

const COLOURS = { red: "#e33", blue: "#36f", green: "#3b3", yellow: "#ed2", orange: "#e69f00", sky: "#56b4e9", purple: "#cc79a7", white: "#ddd", black: "#666" };

function pText(dice) {
  if (dice.p === null) return t("history.no_dice");
  const p = dice.p < 0.0001 ? dice.p.toExponential(2).replace(".", num(0.5).charAt(1)) : num(dice.p, 4);
  const verdict = t(!dice.enough ? "history.too_few" : dice.p < 0.01 ? "history.unusual" : "history.fair");
  return t("history.chi", { dice: num(dice.dice), chi2: num(dice.chi2, 2), p, verdict });
}

// A game's leaderboard: the named players, most wins first (the server ranks them).
function leaderboard(board) {
  const list = el("ol", { class: "leaderboard" });
  for (const person of board) {
    list.append(el("li", { text: t("players.line", { name: person.name, won: num(person.won), games: num(person.games) }) }));
  }
  return el("div", {}, el("p", { class: "hint", text: t("players.leaderboard") }), list);
}

async function showStats() {
  let data;
  try { data = await getJSON("/api/stats?" + query()); } catch (error) {
    $("history-message").textContent = error.message; return;
  }
  const games = $("game-stats"), players = $("player-stats");
  games.textContent = ""; players.textContent = "";
  for (const [name, game] of Object.entries(data.games)) {
    const colours = Object.keys(game.colours);
    const block = el("div", { class: "stat" }, el("h3", { text: gameName(name) }),
      el("p", { text: t("history.game_counts", { kept: num(game.recorded || 0), finished: num(game.games), moves: num(game.moves || 0), rolls: num(game.rolls || 0) }) }));
    if (colours.length) {
      block.append(el("p", { class: "hint", text: t("history.wins_per_colour") }));
      block.append(bars(colours.map((c) => game.colours[c].won), colours.map(colourName), { title: t("history.chart_wins", { name: gameName(name) }), colours: colours.map((c) => COLOURS[c]) }));
    }
    const board = (data.leaderboards || {})[name];
    if (board && board.length) block.append(leaderboard(board));
    games.append(block);
  }
  for (const person of data.people || []) {
    const block = el("div", { class: "stat player person", "data-person": person.person }, el("h3", { text: person.name }),
      el("p", { text: t(person.games === 1 ? "history.player_games_one" : "history.player_games", { n: num(person.games), won: num(person.won) }) }),
      bars(person.dice.counts, ["1", "2", "3", "4", "5", "6"], { title: t("history.chart_dice", { name: person.name }), expected: person.dice.expected }),
      el("p", { class: "chi", text: pText(person.dice) }));
    players.append(block);
  }
  for (const [name, player] of Object.entries(data.players)) {
    const block = el("div", { class: "stat player", "data-player": name }, el("h3", { text: playerName(name) }),
      el("p", { text: t(player.games === 1 ? "history.player_games_one" : "history.player_games", { n: num(player.games), won: num(player.won) }) }),
      bars(player.dice.counts, ["1", "2", "3", "4", "5", "6"], { title: t("history.chart_dice", { name: playerName(name) }), expected: player.dice.expected }),
      el("p", { class: "chi", text: pText(player.dice) }));
    players.append(block);
  }
  if (data.read >= data.limit) players.append(el("p", { class: "hint", text: t("history.stats_limit", { n: num(data.limit) }) }));
}

function start() {
  $("filters").onsubmit = (event) => { event.preventDefault(); showList(); };
  $("first").onclick = () => step(0);
  $("back").onclick = () => step(Number($("step").value) - 1);
  $("forward").onclick = () => step(Number($("step").value) + 1);
  $("last").onclick = () => current && step(current.frames - 1);
  $("step").oninput = () => step(Number($("step").value));
  showList();
}
start();
