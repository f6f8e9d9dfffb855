// Taps that wait while the server cannot be reached (a Wi-Fi drop, the server restarting, a
// laptop asleep). No library, no service worker (clubs serve plain http on a LAN address,
// where browsers allow none).
//
// A form marked data-send="queue" (a card, an action, a turn-up, undo, an agreed result, the
// director's result box) is not sent by the browser but put at the end of this page's queue,
// kept in localStorage (a reload or a locked phone keeps it), each tap with an id of its own
// ("tap") and, when it was made while the one before it still waited, that one's id ("after"):
// the server stores each id once and checks a waiting tap from where the one before it left
// the match. The queue is sent in order, one tap at a time:
// - no answer: the page says "No connection: 2 taps waiting, they will be sent", marks the
//   cards tapped as played, and tries again every 2 seconds (and when the phone is back
//   online or unlocked);
// - stored (or stored already: the server answers "already recorded"): the next one is sent,
//   and the page takes the server's table page;
// - refused (another phone recorded first, the match is over): the page takes the server's
//   page, which says why; the taps after it are not sent (they followed from it) and are
//   named, to be tapped again if they still belong.
// A form marked data-send="now" (the step before the opponent confirms) is sent at once or not
// at all ("No connection: this was not sent"). Without script the forms are plain forms.
(function () {
  "use strict";
  var KEY = "tally-waiting:" + location.pathname;
  var RETRY = 2000;
  var sending = false;
  var retry = null; // the next sending of the queue
  var watching = null; // the next look at the page, after a form that could not be sent
  var lastTap = null; // the latest tap made on the page as the server last showed it
  var offline = false; // whether the last sending found no server

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch (e) { return []; }
  }

  function save(queue) {
    if (queue.length) { localStorage.setItem(KEY, JSON.stringify(queue)); }
    else { localStorage.removeItem(KEY); }
  }

  // An id no other tap has: 32 hex digits from the browser's random numbers
  // (crypto.randomUUID needs https, which a club's LAN address is not).
  function newId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function words(name, values) {
    var box = document.getElementById("waiting");
    var text = box ? box.getAttribute("data-" + name) || "" : "";
    Object.keys(values || {}).forEach(function (k) { text = text.replace("{" + k + "}", values[k]); });
    return text;
  }

  function labels(taps) {
    return taps.map(function (t) { return t.label; }).join(", ");
  }

  // What the page shows while taps wait: the line, the taps in order, the cards played.
  function show(queue, line) {
    var box = document.getElementById("waiting");
    if (!box) { return; }
    var list = box.querySelector("ol");
    list.textContent = "";
    queue.forEach(function (t) {
      var li = document.createElement("li");
      li.textContent = t.label;
      list.appendChild(li);
    });
    box.querySelector(".said").textContent = line;
    box.hidden = !line;
    var back = box.querySelector("button.takeback");
    var last = queue.length && !(sending && queue.length === 1) ? queue[queue.length - 1] : null;
    back.hidden = !last;
    back.textContent = last ? words("takeback", { tap: last.label }) : "";
    // what the server said last, and whose turn it was, are of the table before these taps
    document.body.classList.toggle("waiting", queue.length > 0);
    // a card tapped is played: it cannot be tapped again
    document.querySelectorAll("form[data-send] .cards button[name=token]").forEach(function (b) {
      var played = queue.some(function (t) { return t.token === b.value; });
      b.disabled = played;
      b.classList.toggle("played", played);
    });
  }

  function waitingLine(queue) {
    if (!queue.length) { return ""; }
    return words(queue.length === 1 ? "one" : "many", { n: String(queue.length) });
  }

  // Put the server's page in place of this one (its body and title), as a reload would.
  function take(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    document.title = doc.title;
    document.body.className = doc.body.className;
    document.body.innerHTML = doc.body.innerHTML;
    lastTap = null;
    document.dispatchEvent(new CustomEvent("tally:page"));
  }

  function later() {
    clearTimeout(retry);
    retry = setTimeout(send, RETRY);
  }

  function post(tap) {
    var body = new URLSearchParams();
    tap.fields.forEach(function (f) { body.append(f[0], f[1]); });
    // the form token of the page shown now: a browser restarted meanwhile has a new cookie
    var token = document.querySelector("input[name=csrf]");
    if (token) { body.set("csrf", token.value); }
    if (tap.id) { body.set("tap", tap.id); }
    if (tap.after) { body.set("after", tap.after); }
    return fetch(tap.to, { method: "POST", body: body, credentials: "same-origin", cache: "no-store" });
  }

  // The answer to the first waiting tap: stored, refused, or no answer (try again later).
  function answered(tap, response, html) {
    var queue = load();
    if (!queue.length || queue[0].id !== tap.id) { return; }
    queue.shift();
    offline = false;
    if (response.ok && response.redirected) {
      save(queue);
      take(html);
      show(queue, waitingLine(queue));
      return;
    }
    // refused, or a question first (a rule broken: confirm it): the taps after it wait on it
    var said = response.ok ? [] : [words("refused", { tap: tap.label })];
    if (queue.length) { said.push(words("unsent", { taps: labels(queue) })); }
    save([]);
    take(html);
    if (document.getElementById("waiting")) { show([], said.join(" ")); return; }
    if (said.length) { // a page of its own (the match is over): the words go below its reason
      var line = document.createElement("p");
      line.className = "banner waiting";
      line.textContent = said.join(" ");
      (document.querySelector("main") || document.body).appendChild(line);
    }
  }

  function send() {
    var queue = load();
    if (sending || !queue.length) { return; }
    sending = true;
    var tap = queue[0];
    post(tap)
      .then(function (response) {
        if (response.status >= 500) { throw new Error("the server is not ready"); }
        return response.text().then(function (html) { answered(tap, response, html); });
      })
      .then(function () {
        sending = false;
        send(); // the next one, if any
      }, function () {
        sending = false;
        offline = true;
        var left = load();
        show(left, waitingLine(left));
        later();
      });
  }

  function fields(form, submitter) {
    var out = [];
    new FormData(form).forEach(function (value, name) { out.push([name, String(value)]); });
    if (submitter && submitter.name) { out.push([submitter.name, submitter.value]); }
    return out;
  }

  function label(form, submitter) {
    var said = form.getAttribute("data-label") || (submitter ? submitter.textContent.trim() : "");
    form.querySelectorAll("input[type=number], input[type=text], input:not([type])").forEach(function (i) {
      if (i.value) { said += " " + i.value; }
    });
    return said.trim();
  }

  // A form sent at once: its answer shown, or "No connection" and the page as it was.
  function now(form, submitter) {
    post({ to: form.action, fields: fields(form, submitter) })
      .then(function (response) { return response.text(); })
      .then(take)
      .catch(function () { show(load(), words("lost")); watch(); });
  }

  function queued(form, submitter) {
    var queue = load();
    var tap = {
      id: newId(),
      after: queue.length ? queue[queue.length - 1].id : lastTap || "",
      to: form.action,
      fields: fields(form, submitter),
      token: submitter && submitter.name === "token" ? submitter.value : "",
      label: label(form, submitter)
    };
    lastTap = tap.id;
    queue.push(tap);
    save(queue);
    show(queue, offline ? waitingLine(queue) : ""); // the card is taken at once
    send();
  }

  // After "No connection" for a form sent at once: ask for the page until the server
  // answers, then show it (and send what waits, if anything does).
  function watch() {
    clearTimeout(watching);
    watching = setTimeout(function () {
      fetch(location.href, { cache: "no-store", credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) { throw new Error("not yet"); }
          return r.text();
        })
        .then(function (html) {
          take(html);
          var left = load();
          show(left, waitingLine(left));
          send();
        })
        .catch(watch);
    }, RETRY);
  }

  // A tap made by mistake while it waits is taken back on the phone: it was never sent.
  document.addEventListener("click", function (event) {
    if (!event.target.matches || !event.target.matches("#waiting button.takeback")) { return; }
    var queue = load();
    if (!queue.length || (sending && queue.length === 1)) { return; }
    queue.pop();
    lastTap = queue.length ? queue[queue.length - 1].id : null;
    save(queue);
    show(queue, waitingLine(queue));
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var how = form.getAttribute("data-send");
    if (!how) { return; }
    event.preventDefault();
    if (how === "queue") { queued(form, event.submitter); } else { now(form, event.submitter); }
  });
  window.addEventListener("online", send);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { send(); }
  });
  var waiting = load();
  show(waiting, waitingLine(waiting));
  send();
})();
