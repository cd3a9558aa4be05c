// The phone page: posts its forms as JSON answers, follows the ledger live (server-sent events,
// resumed by Last-Event-ID), swaps in the live part after each event, announces corrections, and
// remembers the last ledger head it saw to warn when the ledger went back or forked. No framework.
(function () {
  "use strict";
  var body = document.body, root = body.dataset.root, game = body.dataset.game;
  var key = "companion.head." + (game || "none");
  function $(id) { return document.getElementById(id); }
  function show(id, text, cls) {
    var el = $(id); if (!el) return;
    el.textContent = text; el.hidden = !text;
    if (cls !== undefined) el.className = id + (cls ? " " + cls : "");
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }
  // A head is remembered as its seq and a prefix of its hash (the mark), the same in every language; the
  // words, in the language the phone saw them, are kept for the warning's text only. Comparing words
  // cried "forked" when the phone switched between English and Russian.
  function remember(seq, words, mark) {
    try { localStorage.setItem(key, JSON.stringify({ seq: seq, words: words, mark: mark || "" })); } catch (e) { /* private mode */ }
  }
  // a fork when the marks differ; a head remembered by an older page has no mark: its words, as before
  function differs(seen, mark, words) { return seen.mark ? !!(mark && seen.mark !== mark) : seen.words !== words; }
  // The ledger head this phone saw last (localStorage) against the one the page was rendered at: a head
  // that went back or forked is warned about; an older head of the same ledger is where the live stream
  // starts, so a page the browser dropped while the phone slept still gets every event it missed,
  // corrections announced with what to put back. Resolves to the seq the stream starts after.
  function checkHead() {
    var seq = parseInt(body.dataset.seq || "0", 10), words = body.dataset.words || "", mark = body.dataset.mark || "";
    var seen = null;
    try { seen = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { seen = null; }
    if (!game) return Promise.resolve(seq);
    if (seen && seen.seq > seq) {
      show("warning", fill(body.dataset.wordsWentBack, { seen: seen.seq, words: seen.words, now: seq }));
      remember(seq, words, mark); return Promise.resolve(seq);
    }
    if (seen && seen.seq >= 1 && seen.seq < seq) {
      return fetch(root + "api/head?at=" + seen.seq, { credentials: "same-origin" }).then(function (r) { return r.json(); })
        .then(function (h) {
          if (h.present && differs(seen, h.mark, h.words)) {
            show("warning", fill(body.dataset.wordsForked, { seen: seen.seq, words: seen.words, now: h.words }));
            remember(seq, words, mark); return seq;
          }
          return h.present ? seen.seq : seq;
        }).catch(function () { remember(seq, words, mark); return seq; });
    }
    if (seen && seen.seq === seq && differs(seen, mark, words)) {
      show("warning", fill(body.dataset.wordsForked, { seen: seen.seq, words: seen.words, now: words }));
    }
    remember(seq, words, mark);
    return Promise.resolve(seq);
  }
  var refreshing = false, again = false, retryDelay = 0, retryTimer = null;
  function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    var url = location.pathname + location.search + (location.search ? "&" : "?") + "part=live";
    fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (r.redirected) { roleLost(); throw new Error("role"); }  // a visitor's view is sent to the join page
      if (!r.ok) throw new Error(String(r.status));
      return r.text();
    }).then(function (html) { $("live").innerHTML = html; bindForms($("live")); retryDelay = 0; })
      .catch(function () {
        // a Wi-Fi blip: the header already moved to the new entry, so the figures must follow; try again
        retryDelay = Math.min(retryDelay ? retryDelay * 2 : 500, 8000);
        clearTimeout(retryTimer); retryTimer = setTimeout(refresh, retryDelay);
      }).then(function () { refreshing = false; if (again) { again = false; refresh(); } });
  }
  function announce(lines) {
    var el = $("announce"); if (!el) return;
    el.innerHTML = "";
    var title = document.createElement("b"); title.textContent = body.dataset.wordsCorrection; el.appendChild(title);
    var ul = document.createElement("ul");
    lines.forEach(function (line) { var li = document.createElement("li"); li.textContent = line; ul.appendChild(li); });
    el.appendChild(ul);
    var ok = document.createElement("button"); ok.type = "button"; ok.id = "announce-ok";
    ok.textContent = body.dataset.wordsDismiss; ok.onclick = function () { el.hidden = true; };
    el.appendChild(ok); el.hidden = false;
  }
  // The role ended under the page (revoked by the banker, or the box restarted and no longer knows this phone):
  // said plainly, then the join page, rather than old figures under "reconnecting…" for ever.
  var lost = false;
  function roleLost() {
    if (lost) return;
    lost = true;
    show("warning", body.dataset.wordsRoleLost);
    setTimeout(function () { location.href = root; }, 2500);
  }
  var noticeTimer = null;
  function listen(since) {
    if (body.dataset.role === "visitor" || !window.EventSource) return;
    var source = new EventSource(root + "events?since=" + since);
    source.addEventListener("ledger", function (e) {
      var d = JSON.parse(e.data);
      body.dataset.seq = d.seq; body.dataset.words = d.words; body.dataset.mark = d.mark || ""; remember(d.seq, d.words, d.mark);
      if (d.announce) announce(d.announce);
      refresh();
    });
    source.addEventListener("notice", function (e) {
      show("notice", JSON.parse(e.data).text);
      clearTimeout(noticeTimer); noticeTimer = setTimeout(function () { show("notice", ""); }, 8000);
    });
    source.addEventListener("reset", function () { checkHead(); location.reload(); });
    source.addEventListener("game", function () { source.close(); setTimeout(function () { location.reload(); }, 300); });
    // data-live: whether the live stream is open now (the page's tests wait for it; a style may show it)
    source.onerror = function () {
      body.dataset.live = "0"; show("notice", body.dataset.wordsLost);
      if (source.readyState !== 2) return;  // the browser reconnects by itself (the box restarting, a Wi-Fi blip)
      // refused (403 after a restart that lost this phone's role): the browser gives up, so ask the box who we are
      setTimeout(function () {
        fetch(root + "api/me", { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (me) {
          if (me.role === "visitor") roleLost(); else location.reload();  // the role is back: a fresh page and stream
        }).catch(function () { setTimeout(function () { location.reload(); }, 3000); });
      }, 1000);
    };
    source.onopen = function () {
      body.dataset.live = "1";
      if ($("notice").textContent === body.dataset.wordsLost) show("notice", "");
    };
  }
  function newAid() {
    var a = new Uint8Array(12); (window.crypto || window.msCrypto).getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  // A money action's preview (issue 22): the lines it would book under the form, and one more tap (the
  // confirm button, carrying the previewed command) books it; changing a field or "No" puts it away.
  function confirmWith(form, answer) {
    var box = form.querySelector(".confirm"); if (!box) return;
    var ul = box.querySelector(".confirm-lines"); ul.innerHTML = "";
    answer.lines.forEach(function (line) { var li = document.createElement("li"); li.textContent = line; ul.appendChild(li); });
    box.querySelector(".confirm-do").value = answer.confirm;
    box.hidden = false; show("result", "");
    box.querySelector(".confirm-cancel").onclick = function () { box.hidden = true; };
    form.oninput = function () { box.hidden = true; };
  }
  function bindForms(scope) {
    Array.prototype.forEach.call(scope.querySelectorAll("form.post"), function (form) {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var data = new FormData(form);
        if (e.submitter && e.submitter.name) data.append(e.submitter.name, e.submitter.value);
        var buttons = form.querySelectorAll("button");
        Array.prototype.forEach.call(buttons, function (b) { b.disabled = true; });
        fetch(form.getAttribute("action"), { method: "POST", body: new URLSearchParams(data), credentials: "same-origin",
          headers: { "X-CSRF-Token": body.dataset.csrf, "Accept": "application/json" } })
          .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, status: r.status, j: j }; }); })
          .then(function (res) {
            if (!res.ok) {
              // a re-scan after a restart, with a page of a session the box no longer has: a fresh page, then the
              // code again (once), so the first scan joins
              if (r403(res) && form.id === "join-form" && !sessionStorage.getItem("companion.retried")) {
                try {
                  sessionStorage.setItem("companion.code", $("join-code").value);
                  sessionStorage.setItem("companion.retried", "1");
                  location.reload(); return;
                } catch (e) { /* private mode: the error is shown */ }
              }
              show("result", res.j.error || "?", "error"); return;
            }
            if (form.id === "join-form") { try { sessionStorage.removeItem("companion.retried"); } catch (e) { /* */ } }
            if (res.j.preview) { confirmWith(form, res.j); return; }
            var asked = form.querySelector(".confirm"); if (asked) asked.hidden = true;
            var aid = form.querySelector("input[name=aid]"); if (aid) aid.value = newAid();
            show("result", (res.j.lines || []).join(" · "), "");
            if (form.dataset.next) location.href = form.dataset.next;
            else if (form.dataset.reload) location.reload();
            else if (form.dataset.refresh) refresh();
          })
          .catch(function () { show("result", body.dataset.wordsLost, "error"); })  // the same aid is sent again
          .then(function () { Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; }); });
      });
    });
  }
  function pairing() {
    var pair = $("pair");
    if (!pair || pair.dataset.state !== "waiting") return;
    var timer = setInterval(function () {
      fetch(root + "api/me", { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (me) {
        if (me.role === "player" || me.pairing.state !== "waiting") { clearInterval(timer); location.reload(); }
      }).catch(function () {});
    }, 1000);
  }
  // the new-game form (issue 22): as many name fields as players chosen
  function nameFields() {
    var count = $("start-count"); if (!count) return;
    function fit() {
      Array.prototype.forEach.call(document.querySelectorAll(".player-name"), function (label) {
        label.hidden = parseInt(label.dataset.n, 10) > parseInt(count.value, 10);
      });
    }
    count.addEventListener("change", fit); fit();
  }
  // The board walk (issue 23): every banker phone follows the one walk; a step made on the reader, the box or
  // another phone shows here within a second.
  function walking() {
    if (!$("walk")) return;
    setInterval(function () {
      var walk = $("walk"); if (!walk || refreshing) return;
      fetch(root + "api/walk", { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (v) {
        // the walk moved on elsewhere: this phone's last answer line is old news (the page says the new one)
        if (String(v.version) !== walk.dataset.version || (v.said || "") !== walk.dataset.said) { show("result", ""); refresh(); }
      }).catch(function () {});
    }, 1000);
  }
  function r403(res) { return res.status === 403; }
  function codeFromLink() {
    var m = /[#&]code=([A-Za-z0-9]+)/.exec(location.hash), input = $("join-code"), code = m ? m[1] : "";
    try {
      var pending = sessionStorage.getItem("companion.code") || "";
      sessionStorage.removeItem("companion.code");
      if (!pending) sessionStorage.removeItem("companion.retried");  // one retry per join, not per browser
      if (!code) code = pending;
    } catch (e) { /* private mode */ }
    if (m) history.replaceState(null, "", location.pathname);  // the code leaves the address bar
    if (code && input) {
      input.value = code;
      $("join-form").requestSubmit ? $("join-form").requestSubmit() : $("join-go").click();
    }
  }
  window.addEventListener("hashchange", codeFromLink);  // the QR code scanned into a page already open
  bindForms(document);
  checkHead().then(listen);
  pairing();
  nameFields();
  walking();
  codeFromLink();
}());
