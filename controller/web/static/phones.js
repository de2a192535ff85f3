// The Setup page's list of paired phones: each can be forgotten (by any paired phone),
// and every phone at once by whoever reads a fresh code off the table. Uses common.js.
"use strict";

async function showPhones() {
  const list = $("phone-list");
  list.textContent = "";
  const data = await getJSON("/api/phones");
  if (!data.phones.length) list.append(el("li", { text: t("phones.none") }));
  for (const phone of data.phones) {
    const words = [phone.label || t("phones.unknown"), t("phones.paired_at", { when: when(phone.paired) })];
    if (phone.this) words.push(t("phones.this"));
    const forget = el("button", { type: "button", text: t("phones.forget") });
    forget.onclick = async () => {
      const { status, data: answer } = await postJSON("/api/phones/forget", { id: phone.id });
      $("phones-message").textContent = status === 200 ? t("phones.forgotten") : answer.error || t("setup.refused");
      if (status === 200 && phone.this) { location.reload(); return; }
      showPhones().catch((error) => { $("phones-message").textContent = error.message; });
    };
    list.append(el("li", {}, words.join(" · "), " ", forget));
  }
}

async function startPhones() {
  const state = await getJSON("/api/state");
  page.csrf = state.csrf; page.paired = !!state.paired;
  $("phones").hidden = !page.paired;
  if (page.paired) await showPhones();
  $("forget-code").onclick = async () => {
    const { status, data } = await postJSON("/api/pair/code", {});
    $("forget-all-message").textContent = status === 200 ? t("pair.shown") : data.error || t("setup.refused");
  };
  $("forget-all-form").onsubmit = async (event) => {
    event.preventDefault();
    const { status, data } = await postJSON("/api/phones/forget-all", { code: $("forget-all-code").value });
    if (status !== 200) { $("forget-all-message").textContent = data.error || t("setup.refused"); return; }
    $("forget-all-message").textContent = t("phones.forgot_all", { count: data.forgotten });
    page.csrf = null; page.paired = false; $("phones").hidden = true;
  };
}
startPhones().catch((error) => { $("forget-all-message").textContent = error.message; });
