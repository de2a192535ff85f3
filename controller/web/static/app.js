// The companion page: the live mirror, pairing and the phone seat. No libraries;
// its words come from common.js.
"use strict";
let csrf = null;
let phoneSeats = [];

async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

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

function showStatus(table) {
  $("status").textContent = table.text || "";
  $("code-note").hidden = !table.code_shown || !!csrf;
  $("dice").textContent = table.dice && table.dice.length ? t("live.dice", { dice: table.dice.join(" ") }) : "";
  const list = $("seats");
  list.textContent = "";
  for (const seat of table.seats) {
    const item = document.createElement("li");
    item.textContent = t("live.seat", { n: seat.seat + 1 }) + (seat.label ? ": " + seat.label : "") + (seat.on_turn ? " · " + t("live.to_play") : "");
    item.style.borderColor = seat.on_turn ? "#fff" : seat.colour;
    item.style.color = seat.playing ? seat.colour : "#777";
    if (seat.on_turn) item.className = "turn";
    list.appendChild(item);
  }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.binaryType = "arraybuffer";
  ws.onopen = () => { $("link").textContent = t("live.live"); };
  ws.onmessage = (message) => {
    if (typeof message.data === "string") showStatus(JSON.parse(message.data));
    else drawFrame(message.data);
  };
  ws.onclose = () => { $("link").textContent = t("live.offline"); setTimeout(connect, 2000); };
}

function showPaired() {
  $("pairing").hidden = !!csrf;
  $("phone").hidden = !csrf || phoneSeats.length === 0;
  const select = $("phone-seat");
  select.textContent = "";
  for (const seat of phoneSeats) {
    const option = document.createElement("option");
    option.value = String(seat); option.textContent = t("live.seat", { n: seat + 1 });
    select.appendChild(option);
  }
}

function wireButton(id, button) {
  const element = $(id);
  let down = false;
  const press = (kind) => {
    post("/api/press", { seat: Number($("phone-seat").value), button, kind })
      .catch((error) => { $("pair-message").textContent = error.message; });
  };
  element.addEventListener("pointerdown", (event) => {
    event.preventDefault(); down = true; element.classList.add("down"); press("down");
  });
  const release = () => { if (down) { down = false; element.classList.remove("down"); press("up"); } };
  element.addEventListener("pointerup", release);
  element.addEventListener("pointerleave", release);
  element.addEventListener("pointercancel", release);
}

async function start() {
  const state = await (await fetch("/api/state")).json();
  csrf = state.csrf; phoneSeats = state.phone_seats;
  if (state.table) showStatus(state.table);
  showPaired();
  const code = new URLSearchParams(location.search).get("code");
  if (code && !csrf) $("code").value = code;
  $("show-code").onclick = () => post("/api/pair/code").then(
    () => { $("pair-message").textContent = t("pair.shown"); },
    (error) => { $("pair-message").textContent = error.message; });
  $("pair-form").onsubmit = (event) => {
    event.preventDefault();
    post("/api/pair", { code: $("code").value }).then((data) => {
      csrf = data.csrf; $("pair-message").textContent = ""; showPaired();
    }, (error) => { $("pair-message").textContent = error.message; });
  };
  wireButton("btn-ok", "ok");
  wireButton("btn-next", "next");
  connect();
}
start();
