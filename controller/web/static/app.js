// The companion page: the live mirror, pairing and the phone seat. No libraries;
// its words come from common.js.
"use strict";
let phoneSeats = [];
let table = null;       // the newest status from the stream
let shown = {};         // what the page shows now, so a repeated status writes nothing
let wasPaired = false;
let refreshing = null;

function drawFrame(buffer) {
  const bytes = new Uint8Array(buffer);
  const width = bytes[0], height = bytes[1];
  const canvas = $("panel");
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width; canvas.height = height;
  }
  const context = canvas.getContext("2d");
  const image = context.createImageData(width, height);
  for (let i = 0, j = 2; i < width * height; i++, j += 3) {
    image.data[4 * i] = bytes[j];
    image.data[4 * i + 1] = bytes[j + 1];
    image.data[4 * i + 2] = bytes[j + 2];
    image.data[4 * i + 3] = 255;
  }
  context.putImageData(image, 0, 0);
  canvas.dataset.frames = String(Number(canvas.dataset.frames || 0) + 1);
}

// Write an element's text only when it changes: the status is a live region, and a
// screen reader reads every write again (the stream repeats the status with each frame).
function setText(id, text) {
  if (shown[id] === text) return;
  shown[id] = text;
  $(id).textContent = text;
}

// A seat by its colour and player, as the panel's seat label says it ("rot · Mensch");
// its number only before a game has given it one.
function seatName(index) {
  const seat = table && table.seats ? table.seats[index] : null;
  return seat && seat.label ? seat.label : t("live.seat", { n: index + 1 });
}

function showStatus(status) {
  const before = table;
  table = status;
  setText("status", status.text || "");
  $("code-note").hidden = !status.code_shown || page.paired;
  setText("dice", status.dice && status.dice.length ? t("live.dice", { dice: status.dice.join(" ") }) : "");
  const seats = JSON.stringify(status.seats);
  if (shown.seats !== seats) {
    shown.seats = seats;
    const list = $("seats");
    list.textContent = "";
    for (const seat of status.seats) {
      const item = document.createElement("li");
      item.textContent = t("live.seat", { n: seat.seat + 1 }) + (seat.label ? ": " + seat.label : "") + (seat.on_turn ? " · " + t("live.to_play") : "");
      item.style.borderColor = seat.on_turn ? "#fff" : seat.colour;
      item.style.color = seat.playing ? seat.colour : "#777";
      if (seat.on_turn) item.className = "turn";
      list.appendChild(item);
    }
    showSeatNames();
  }
  // A new game (started here, from Setup or at the table) may seat the phones
  // elsewhere: read the seats again before the next press.
  const players = (s) => JSON.stringify(s.seats.map((seat) => [seat.label, seat.playing]));
  if (before && (before.playing !== status.playing || players(before) !== players(status))) refresh();
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.binaryType = "arraybuffer";
  ws.onopen = () => {
    setText("link", t("live.live"));
    refresh();  // the table may have restarted meanwhile and forgotten this phone
  };
  ws.onmessage = (message) => {
    if (typeof message.data === "string") showStatus(JSON.parse(message.data));
    else drawFrame(message.data);
  };
  ws.onclose = () => { setText("link", t("live.offline")); setTimeout(connect, 2000); };
}

function showSeatNames() {
  const select = $("phone-seat");
  const chosen = select.value;
  select.textContent = "";
  for (const seat of phoneSeats) {
    select.append(el("option", { value: String(seat), text: seatName(seat) }));
  }
  if (phoneSeats.map(String).includes(chosen)) select.value = chosen;
  const seat = Number(select.value);
  const look = table && table.seats ? table.seats[seat] : null;
  setText("bar-seat", phoneSeats.length ? t("phone.yours", { seat: seatName(seat) }) : "");
  $("bar-seat").style.borderColor = look ? look.colour : "transparent";
}

function showPaired() {
  const playing = page.paired && phoneSeats.length > 0;
  $("pairing").hidden = page.paired;
  $("phone").hidden = !playing;
  $("phone-bar").hidden = !playing;
  document.body.classList.toggle("with-bar", playing);
  showSeatNames();
}

// Read the pairing and the phone seats again: after every reconnect (a restarted table
// has forgotten its pairings) and every new game (Setup may have moved the phone seat).
function refresh() {
  if (refreshing) return refreshing;
  refreshing = loadSession().then((state) => {
    const lost = wasPaired && !page.paired;
    phoneSeats = state.phone_seats;
    wasPaired = page.paired;
    showPaired();
    if (lost) {
      $("code").value = "";
      setText("pair-message", t("live.code_again"));
      $("pair-message").scrollIntoView({ block: "center" });
    }
    if (page.paired) setText("press-message", "");
  }).catch(() => {}).finally(() => { refreshing = null; });
  return refreshing;
}

async function press(button, kind) {
  const seat = Number($("phone-seat").value);
  let answer;
  try {
    answer = await postJSON("/api/press", { seat, button, kind });
  } catch (error) {
    setText("press-message", t("live.offline")); return;
  }
  if (answer.status === 200) { if (kind === "down") setText("press-message", ""); return; }
  await refresh();
  // The server's answer is in the page's language; a seat that is no phone's any more
  // is said in the page's own words.
  const text = answer.status === 400 ? t("phone.seat_gone") : answer.data.error || t("setup.refused");
  if (page.paired) setText("press-message", text);
  else setText("pair-message", text);
}

// The big buttons: pointer down and up, or Enter and Space held and let go, as the
// table's own buttons are pressed and released (NEXT held jumps).
function wireButton(id, button) {
  const element = $(id);
  let down = false;
  const start = () => {
    if (down) return;
    down = true; element.classList.add("down"); press(button, "down");
  };
  const release = () => { if (down) { down = false; element.classList.remove("down"); press(button, "up"); } };
  element.addEventListener("pointerdown", (event) => { event.preventDefault(); start(); });
  element.addEventListener("pointerup", release);
  element.addEventListener("pointerleave", release);
  element.addEventListener("pointercancel", release);
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    if (!event.repeat) start();
  });
  element.addEventListener("keyup", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault(); release();
  });
  element.addEventListener("blur", release);
}

async function start() {
  const state = await loadSession();
  phoneSeats = state.phone_seats; wasPaired = page.paired;
  if (state.table) showStatus(state.table);
  showPaired();
  const code = new URLSearchParams(location.search).get("code");
  if (code && !page.paired) $("code").value = code;
  $("show-code").onclick = async () => {
    const answer = await postJSON("/api/pair/code");
    setText("pair-message", answer.status === 200 ? t("pair.shown") : answer.data.error || t("setup.refused"));
  };
  $("pair-form").onsubmit = async (event) => {
    event.preventDefault();
    const answer = await postJSON("/api/pair", { code: $("code").value });
    if (answer.status !== 200) { setText("pair-message", answer.data.error || t("setup.refused")); return; }
    page.csrf = answer.data.csrf; page.paired = true;
    setText("pair-message", "");
    await refresh();
  };
  $("phone-seat").onchange = showSeatNames;
  wireButton("btn-ok", "ok");
  wireButton("btn-next", "next");
  connect();
}
start();
