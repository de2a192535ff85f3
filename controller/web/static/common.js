// Shared by the Setup and History pages: the session's CSRF token and JSON requests.
"use strict";
const page = { csrf: null, paired: false };

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") node.textContent = value; else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

async function getJSON(path) {
  const response = await fetch(path);
  let data = {};
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function postJSON(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (page.csrf) headers["X-CSRF-Token"] = page.csrf;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  return { status: response.status, data };
}

async function loadSession() {
  const state = await getJSON("/api/state");
  page.csrf = state.csrf; page.paired = !!state.paired;
  return state;
}
