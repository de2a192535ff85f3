// Shared by every page: the page's words, numbers and dates in its language, the
// session's CSRF token and JSON requests.
"use strict";
const page = { csrf: null, paired: false };
const WORDS = JSON.parse(document.getElementById("words").textContent);
const LANG = document.documentElement.lang;

function $(id) { return document.getElementById(id); }

// A word of the page by its key, "{name}" filled in from values (the server sent the
// words in the table's language; a key it lacks shows as itself, never as English).
function t(key, values) {
  const word = WORDS[key] === undefined ? key : WORDS[key];
  return word.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
}

// Numbers and dates as the page's language writes them (0,5 and 05.01.2026 in German).
function num(value, digits) {
  const options = digits === undefined ? { maximumFractionDigits: 4 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return Number(value).toLocaleString(LANG, options);
}

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(LANG, { dateStyle: "short", timeStyle: "short" });
}

// A number typed in either way ("0,5" or "0.5"); anything else goes to the table as
// typed, so that the config's check names what is wrong.
function parseNumber(text) {
  const trimmed = String(text).trim();
  const value = Number(trimmed.replace(",", "."));
  return trimmed !== "" && Number.isFinite(value) ? value : trimmed;
}

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
