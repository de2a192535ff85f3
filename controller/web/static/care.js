// The Care page: the running release, an update bundle's upload, a backup's download,
// a restore and a factory reset (each change paired; restore and reset confirmed).
"use strict";

async function send(path, body, headers) {
  const all = Object.assign({ "Content-Type": "application/octet-stream" }, headers || {});
  if (page.csrf) all["X-CSRF-Token"] = page.csrf;
  const response = await fetch(path, { method: "POST", headers: all, body });
  let data = {};
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  return response.ok ? { ok: true, text: data.message || "" }
    : { ok: false, text: data.error || response.statusText };
}

// An answer in its place: a refusal in the error colour, an acceptance in calm green,
// so the two never look alike.
function answer(id, reply) {
  $(id).textContent = reply.text;
  $(id).className = reply.ok ? "accepted" : "refused";
}

async function showStatus() {
  const info = await getJSON("/api/update");
  $("running").textContent = t("care.running", { release: info.current || info.program || t("care.none") });
  $("way-back").textContent = t("care.way_back", { release: info.previous || t("care.none") });
  $("last-update").textContent = info.notice ? (info.notice_words || info.notice.text) : "";
}

async function download() {
  const headers = {};
  if (page.csrf) headers["X-CSRF-Token"] = page.csrf;
  const response = await fetch("/api/backup", { method: "POST", headers });
  if (!response.ok) {
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    answer("backup-message", { ok: false, text: data.error || response.statusText });
    return;
  }
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: "spieltisch-backup.tar.gz" });
  document.body.append(link);
  link.click();
  link.remove();
}

async function start() {
  await loadSession();
  $("unpaired").hidden = page.paired;
  for (const id of ["upload", "download", "restore", "reset"]) $(id).disabled = !page.paired;
  $("upload").onclick = async () => {
    const file = $("bundle").files[0];
    if (!file) return;
    answer("update-message", { ok: true, text: t("care.uploading") });
    answer("update-message", await send("/api/update", file));
  };
  $("download").onclick = () => download().catch((error) => answer("backup-message", { ok: false, text: error.message }));
  $("restore").onclick = async () => {
    const file = $("backup-file").files[0];
    if (!file || !window.confirm(t("care.confirm_restore"))) return;
    answer("backup-message", await send("/api/backup/restore", file, { "X-Confirm": "restore" }));
  };
  $("reset").onclick = async () => {
    if (!window.confirm(t("care.confirm_reset"))) return;
    answer("backup-message", await send("/api/backup/reset", null, { "X-Confirm": "factory-reset" }));
  };
  await showStatus();
}
start().catch((error) => { $("update-message").textContent = error.message; });
