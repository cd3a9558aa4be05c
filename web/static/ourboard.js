// The banker's editor of the table's own board (issue 23): sends only what changed, with the version it was read at.
(function () {
  "use strict";
  var body = document.body, form = document.getElementById("board-form");
  function show(text, kind) {
    var box = document.getElementById("result"); box.textContent = text; box.className = "result " + (kind || "");
    box.hidden = false; box.scrollIntoView({ block: "nearest" });
  }
  function post(url, data, isForm) {
    return fetch(url, { method: "POST", credentials: "same-origin", body: isForm ? data : JSON.stringify(data),
      headers: isForm ? { "X-CSRF-Token": body.dataset.csrf, "Accept": "application/json" } :
        { "X-CSRF-Token": body.dataset.csrf, "Accept": "application/json", "Content-Type": "application/json" } })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, status: r.status, j: j }; }); });
  }
  function answered(res) {
    if (!res.ok) {
      show(res.j.error || "?", "error");
      var changed = document.getElementById("board-changed");
      if (changed && res.j.changed_words) { changed.textContent = changed.dataset.words + " " + res.j.changed_words.join("; "); changed.hidden = false; }
      return;
    }
    show(res.j.line || "", ""); setTimeout(function () { location.reload(); }, 600);
  }
  function changed(input) {
    if (input.tagName !== "SELECT") return input.value !== input.defaultValue;
    var first = input.querySelector("option[selected]");
    return (first ? first.value : input.options.length ? input.options[0].value : "") !== input.value;
  }
  // another effect kind chosen: its own parameters, each a labelled input, from what the rules declare
  var kindsNode = document.getElementById("effect-kinds"), described = kindsNode ? JSON.parse(kindsNode.textContent) : null;
  function paramInput(p) {
    var label = document.createElement("label"), input;
    label.className = "param"; label.appendChild(document.createTextNode(p.label));
    if (!p.required) { var note = document.createElement("small"); note.textContent = " " + described.optional; label.appendChild(note); }
    if (p.type === "number") {
      input = document.createElement("input"); input.type = "number"; input.min = p.low; input.max = p.high; input.step = 1;
      input.setAttribute("inputmode", "numeric");
    } else {
      input = document.createElement("select");
      var choices = (p.required ? [] : [{ value: "", name: described.unset }]).concat(p.choices);
      choices.forEach(function (c) { var o = document.createElement("option"); o.value = c.value; o.textContent = c.name; input.appendChild(o); });
    }
    input.className = "effect-param"; input.dataset.key = p.key;
    label.appendChild(document.createTextNode(" ")); label.appendChild(input);
    return label;
  }
  if (form && described) form.addEventListener("change", function (e) {
    if (!e.target.classList.contains("effect-do")) return;
    var box = e.target.closest(".effect").querySelector(".effect-params");
    var kind = described.kinds.filter(function (k) { return k.do === e.target.value; })[0];
    box.textContent = "";
    if (kind) kind.params.forEach(function (p) { box.appendChild(paramInput(p)); });
  });
  if (form) form.addEventListener("submit", function (e) {
    e.preventDefault();
    var values = {}, effects = {}, confirm = [];
    Array.prototype.forEach.call(form.querySelectorAll(".value"), function (input) {
      if (input.value !== input.defaultValue) values[input.dataset.path] = input.value;
    });
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.card"), function (card) {
      var rows = [], touched = false;
      Array.prototype.forEach.call(card.querySelectorAll(".effect"), function (row) {
        var sel = row.querySelector(".effect-do"), params = {};
        var first = sel.querySelector("option[selected]");
        if ((first ? first.value : "") !== sel.value) touched = true;
        Array.prototype.forEach.call(row.querySelectorAll(".effect-param"), function (input) {
          if (changed(input)) touched = true;
          params[input.dataset.key] = input.value;
        });
        rows.push([sel.value, params]);  // each parameter in its own input: {key: typed text}
      });
      if (touched) effects[card.dataset.item] = rows;
    });
    Array.prototype.forEach.call(form.querySelectorAll(".box-ok"), function (box) {
      if (box.checked && !box.disabled) confirm.push(box.value);
    });
    post(form.getAttribute("action"), { base: form.dataset.base, version: Number(form.dataset.version),
      values: values, effects: effects, confirm: confirm }).then(answered)
      .catch(function () { show(body.dataset.wordsLost, "error"); });
  });
  var share = document.getElementById("board-share");
  if (share) share.addEventListener("click", function (e) {
    e.preventDefault();
    fetch(share.getAttribute("href"), { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.json(); }).then(function (j) {
        var out = document.getElementById("share-text");
        if (j.text) { out.value = location.origin + location.pathname + "#board=" + j.text; out.hidden = false; out.select(); }
        show(j.line || j.error || "?", j.text ? "" : "error");
      }).catch(function () { show(body.dataset.wordsLost, "error"); });
  });
  var imp = document.getElementById("board-import");
  var shared = /[#&]board=([^&]+)/.exec(location.hash);  // a share link opened: the text waits in the form
  if (imp && shared) { imp.querySelector("textarea[name=text]").value = decodeURIComponent(shared[1]); imp.scrollIntoView(); }
  if (imp) imp.addEventListener("submit", function (e) {
    e.preventDefault();
    var data = new FormData(imp); data.append("version", imp.dataset.version); data.append("base", imp.dataset.base); data.append("csrf", body.dataset.csrf);
    var file = imp.querySelector("input[type=file]");
    if (!file.files.length) data.delete("file");
    post(imp.getAttribute("action"), data, true).then(answered).catch(function () { show(body.dataset.wordsLost, "error"); });
  });
})();
