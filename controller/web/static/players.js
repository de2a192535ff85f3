// The Players page: the family's named players (add, rename, remove, paired) and
// each game's leaderboard of them.
"use strict";

async function change(body) {
  const { status, data } = await postJSON("/api/players", body);
  $("players-message").textContent = status === 200 ? "" : (data.error || String(status));
  if (status === 200) await showPlayers();
  return status === 200;
}

function row(player) {
  const name = el("input", { type: "text", value: player.name, "aria-label": t("players.name_of", { name: player.name }) });
  const rename = el("button", { type: "button", text: t("players.rename") });
  const remove = el("button", { type: "button", text: t("players.remove") });
  rename.disabled = remove.disabled = name.disabled = !page.paired;
  rename.onclick = () => change({ action: "rename", id: player.id, name: name.value });
  remove.onclick = () => {
    if (window.confirm(t("players.confirm_remove", { name: player.name }))) change({ action: "remove", id: player.id });
  };
  return el("li", { "data-id": player.id }, name, " ", rename, " ", remove);
}

async function showPlayers() {
  const data = await getJSON("/api/players");
  const list = $("list");
  list.textContent = "";
  for (const player of data.players) list.append(row(player));
  $("none").hidden = data.players.length > 0;
  $("new-name").maxLength = data.max_length;
}

async function showBoards() {
  const data = await getJSON("/api/stats");
  const boards = $("leaderboards");
  boards.textContent = "";
  for (const [game, board] of Object.entries(data.leaderboards || {})) {
    const list = el("ol", { class: "leaderboard" });
    for (const person of board) {
      list.append(el("li", { text: t("players.line", { name: person.name, won: num(person.won), games: num(person.games) }) }));
    }
    boards.append(el("div", { class: "stat", "data-game": game }, el("h3", { text: t("game." + game) }), list));
  }
  $("no-boards").hidden = boards.childElementCount > 0;
}

async function start() {
  await loadSession();
  $("unpaired").hidden = page.paired;
  $("add").disabled = $("new-name").disabled = !page.paired;
  $("add-form").onsubmit = async (event) => {
    event.preventDefault();
    if (await change({ action: "add", name: $("new-name").value })) $("new-name").value = "";
  };
  await showPlayers();
  await showBoards().catch(() => { $("no-boards").hidden = false; });
}
start().catch((error) => { $("players-message").textContent = error.message; });
