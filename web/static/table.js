// The virtual table's page: the OLED follows /frames (server-sent events); buttons, ROLL and cards POST.
// A short press is reported when the button is let go; a hold reaches a long press after LONG_MS, at once,
// as the box's own buttons do (its release then does nothing). Shift-click, Shift+key and the small
// "hold" controls give a long press straight away.
"use strict";
(function () {
  const script = document.currentScript;
  const LONG_MS = Number(script && script.dataset.longMs) || 800;
  const WORDS = JSON.parse(document.getElementById("page-words").textContent);
  const KEYS = { ArrowUp: "up", ArrowDown: "down", Enter: "ok", Backspace: "back", Escape: "back" };

  const oled = document.getElementById("oled");
  const message = document.getElementById("message");
  const statusLine = document.getElementById("status");
  const readerWords = document.getElementById("reader");
  const statusWords = document.getElementById("status-words");
  const cardsBox = document.getElementById("cards");
  const editionLine = document.getElementById("edition");
  let shown = Number(oled.dataset.version);

  // --- the screen -------------------------------------------------------------------------------
  function show(version) {
    if (Number.isFinite(version) && version !== shown) {
      shown = version;
      oled.dataset.version = String(version);
      oled.src = "/frame.png?v=" + version;
    }
  }

  let stream = null;
  function listen() {
    stream = new EventSource("/frames");
    stream.onmessage = function (e) { show(Number(e.data)); };
    stream.onerror = function () {
      if (stream.readyState === EventSource.CLOSED) {  // refused outright: try again a little later
        stream = null;
        setTimeout(listen, 3000);
      }
    };
  }
  window.addEventListener("pagehide", function () { if (stream) stream.close(); });

  // --- talking to the box: one request at a time, in the order they were made --------------------
  let queue = Promise.resolve();
  function say(text, ok) {
    message.textContent = text || "";
    message.classList.toggle("ok", Boolean(ok));
  }
  function post(path, body) {
    queue = queue.then(async function () {
      try {
        const r = await fetch(path, {
          method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}),
        });
        if (r.ok) {
          say("");
        } else {
          let line = r.status + " " + r.statusText;
          try { line = (await r.json()).error || line; } catch (e) { /* not JSON: keep the status */ }
          say(line);
        }
      } catch (e) {
        say(WORDS.gone);
      }
      setTimeout(refreshStatus, 150);
    });
    return queue;
  }
  function press(button, long) {
    if (long) say(WORDS.long_done + ": " + button, true);
    return post("/press", { button: button, long: Boolean(long) });
  }

  // --- pressing and holding ----------------------------------------------------------------------
  let held = null;  // {button, element, timer, fired}
  function element(button) { return document.getElementById("btn-" + button); }
  function begin(button, longNow) {
    if (held) return;
    const el = element(button);
    held = { button: button, element: el, fired: Boolean(longNow), timer: null };
    if (el) el.classList.add("pressed");
    if (longNow) {
      if (el) el.classList.add("held");
      press(button, true);
      return;
    }
    const mine = held;
    held.timer = setTimeout(function () {
      mine.fired = true;
      if (mine.element) mine.element.classList.add("held");
      press(mine.button, true);
    }, LONG_MS);
  }
  function end(button, cancel) {
    if (!held || (button && held.button !== button)) return;
    clearTimeout(held.timer);
    if (!held.fired && !cancel) press(held.button, false);
    if (held.element) held.element.classList.remove("pressed", "held");
    held = null;
  }

  document.querySelectorAll(".btn[data-button]").forEach(function (el) {
    const button = el.dataset.button;
    el.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      begin(button, e.shiftKey);
    });
    el.addEventListener("pointerup", function () { end(button, false); });
    el.addEventListener("pointercancel", function () { end(button, true); });
    el.addEventListener("contextmenu", function (e) { e.preventDefault(); });
    // a keyboard's activation of a focused button (Space) is a click with no pointer behind it
    el.addEventListener("click", function (e) { if (e.detail === 0) press(button, false); });
  });
  document.querySelectorAll(".hold[data-button]").forEach(function (el) {
    el.addEventListener("click", function () { press(el.dataset.button, true); });
  });

  const roll = document.getElementById("btn-roll");
  function rollNow() {
    roll.classList.add("pressed");
    setTimeout(function () { roll.classList.remove("pressed"); }, 150);
    post("/roll");
  }
  roll.addEventListener("click", rollNow);

  function typing(target) {
    return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
  }
  document.addEventListener("keydown", function (e) {
    if (typing(e.target) || e.ctrlKey || e.altKey || e.metaKey) return;
    if (e.code === "KeyR" || e.key === "r" || e.key === "R") {  // the key where R is, whatever the layout
      e.preventDefault();
      if (!e.repeat) rollNow();
      return;
    }
    const button = KEYS[e.key];
    if (!button) return;
    e.preventDefault();  // no scrolling, no going back, no activating a focused button
    if (!e.repeat) begin(button, e.shiftKey);
  });
  document.addEventListener("keyup", function (e) {
    const button = KEYS[e.key];
    if (button && !typing(e.target)) end(button, false);
  });
  window.addEventListener("blur", function () { end(null, true); });

  // --- cards -------------------------------------------------------------------------------------
  function tap(uid, el) {
    if (el) {
      el.classList.add("tapped");
      setTimeout(function () { el.classList.remove("tapped"); }, 400);
    }
    return post("/tap", { uid: uid });
  }
  cardsBox.addEventListener("click", function (e) {
    const el = e.target.closest(".card[data-uid]");
    if (el) tap(el.dataset.uid, el);
  });
  const uidInput = document.getElementById("tap-uid");
  document.getElementById("tap-form").addEventListener("submit", function (e) {
    e.preventDefault();
    tap(uidInput.value.trim(), null);
  });
  document.getElementById("btn-new-card").addEventListener("click", function () {
    const bytes = new Uint8Array(4);
    crypto.getRandomValues(bytes);
    uidInput.value = Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("").toUpperCase();
    tap(uidInput.value, null);
  });

  // the cards in groups by kind (players, plots, deck cards, others), as the server drew them first
  const KINDS = ["player", "plot", "card"];
  const filter = document.getElementById("card-filter");
  const closed = new Set();  // the groups someone folded stay folded when the list is drawn again
  cardsBox.addEventListener("toggle", function (e) {
    const group = e.target;
    if (group.open) closed.delete(group.dataset.kind); else closed.add(group.dataset.kind);
  }, true);

  function applyFilter() {
    const wanted = filter.value.trim().toLowerCase();
    cardsBox.querySelectorAll(".group").forEach(function (group) {
      let shown = 0;
      group.querySelectorAll(".card").forEach(function (card) {
        const hit = !wanted || card.textContent.toLowerCase().includes(wanted) ||
          card.dataset.uid.toLowerCase().includes(wanted);
        card.hidden = !hit;
        if (hit) shown += 1;
      });
      group.hidden = shown === 0;
    });
  }
  filter.addEventListener("input", applyFilter);

  let lastCards = JSON.stringify(JSON.parse(document.getElementById("page-cards").textContent));
  function drawCards(cards) {
    const text = JSON.stringify(cards);
    if (text === lastCards) return;
    lastCards = text;
    cardsBox.replaceChildren();
    if (!cards.length) {
      const p = document.createElement("p");
      p.className = "empty";
      p.textContent = WORDS.no_cards;
      cardsBox.append(p);
      return;
    }
    const kinds = KINDS.filter(function (k) { return cards.some(function (c) { return c.kind === k; }); });
    Array.from(new Set(cards.map(function (c) { return c.kind; }))).sort().forEach(function (k) {
      if (!KINDS.includes(k)) kinds.push(k);
    });
    kinds.forEach(function (kind) {
      const mine = cards.filter(function (c) { return c.kind === kind; });
      const group = document.createElement("details");
      group.className = "group";
      group.dataset.kind = kind;
      group.open = !closed.has(kind);
      const summary = document.createElement("summary");
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = "(" + mine.length + ")";
      summary.append((WORDS["kind_" + kind] || WORDS.kind_other) + " ", count);
      const chips = document.createElement("div");
      chips.className = "chips";
      mine.forEach(function (c) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "card";
        b.dataset.uid = c.uid;
        b.dataset.kind = c.kind;
        b.title = c.uid;
        b.textContent = c.words;
        chips.append(b);
      });
      group.append(summary, chips);
      cardsBox.append(group);
    });
    applyFilter();
  }
  async function refreshCards() {
    try {
      const r = await fetch("/cards", { cache: "no-store" });
      if (r.ok) drawCards(await r.json());
    } catch (e) { /* the status line says the box is gone */ }
  }

  // --- status ------------------------------------------------------------------------------------
  async function refreshStatus() {
    try {
      const r = await fetch("/status", { cache: "no-store" });
      if (!r.ok) throw new Error(String(r.status));
      const s = await r.json();
      statusLine.classList.remove("gone");
      statusLine.dataset.reader = s.reader;
      statusLine.dataset.game = s.game ? "yes" : "no";
      readerWords.textContent = WORDS.reader_is + " " + (s.reader_words || s.reader);
      statusWords.textContent = s.words || "";
      if ((s.edition_words || "") !== editionLine.textContent) {  // a new game of another edition: its cards now
        editionLine.textContent = s.edition_words || "";
        refreshCards();
      }
    } catch (e) {
      statusLine.classList.add("gone");
      readerWords.textContent = WORDS.gone;
    }
  }

  listen();
  setInterval(refreshStatus, 2000);
  setInterval(refreshCards, 3000);
}());
