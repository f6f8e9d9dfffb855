// The wall (/standings/N): live content and pages that fit the screen. No library.
//
// Live: ask the server every second whether anything changed (the audit log's newest entry)
// and, if so, put the new content in place, without a reload. While it cannot reach the server
// the heading says "connection lost since 21:14"; it carries on by itself when it can again.
//
// Pages: on a screen wider than a phone the page is exactly one screen (body.paged). Each
// column's rows (.pageable .item) are measured as the browser lays them out (long names that
// wrap take their real height) and split into pages that fit the room the column has; the
// pages turn by themselves every data-every seconds, each column on its own, with "page 2 of
// 3" (the column's data-pager words) beside its heading. New content keeps the page shown.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box) { return; }
  var version = box.getAttribute("data-version");
  var src = box.getAttribute("data-src");
  var every = Math.max(2, parseInt(box.getAttribute("data-every"), 10) || 10) * 1000;
  var wide = window.matchMedia("(min-width: 801px)");
  var turn = 0;
  var lost = document.getElementById("lost");
  var lostSince = null;

  // "connection lost since 21:14" while the server cannot be reached (the wall's own clock)
  function reached(ok) {
    if (!lost) { return; }
    if (ok) { lostSince = null; lost.hidden = true; return; }
    if (lostSince === null) {
      lostSince = new Date();
      var hh = ("0" + lostSince.getHours()).slice(-2), mm = ("0" + lostSince.getMinutes()).slice(-2);
      lost.textContent = lost.getAttribute("data-words").replace("{time}", hh + ":" + mm);
    }
    lost.hidden = false;
  }

  function heights(items) {
    return Array.prototype.map.call(items, function (item) {
      var style = window.getComputedStyle(item);
      return item.getBoundingClientRect().height + (parseFloat(style.marginBottom) || 0);
    });
  }

  // Split rows of these heights into pages of at most `room` each (at least one row a page),
  // no page holding more than `cap` rows.
  function split(sizes, room, cap) {
    var pages = [], page = [], used = 0;
    sizes.forEach(function (size, i) {
      if (page.length && (used + size > room || page.length >= cap)) {
        pages.push(page);
        page = [];
        used = 0;
      }
      page.push(i);
      used += size;
    });
    if (page.length) { pages.push(page); }
    return pages;
  }

  // The pages of one column: as few as fit, then as even as they can be (10 + 10, not 12 + 8).
  function paginate(list) {
    var items = list.querySelectorAll(".item");
    Array.prototype.forEach.call(items, function (item) { item.classList.remove("off"); });
    shorten(list);
    if (!document.body.classList.contains("paged")) { return [Array.prototype.slice.call(items)]; }
    var head = list.querySelector("thead");
    var room = list.clientHeight - (head ? head.getBoundingClientRect().height : 0) - 1;
    var sizes = heights(items);
    var pages = split(sizes, room, Infinity);
    if (pages.length > 1) {
      var even = split(sizes, room, Math.ceil(sizes.length / pages.length));
      if (even.length === pages.length) { pages = even; }
    }
    return pages.map(function (page) { return page.map(function (i) { return items[i]; }); });
  }

  // Each name whole where it fits on its line, else shortened (data-short: "B. Mühlbacher"),
  // else wrapped between words: never cut or broken mid-word.
  function shorten(list) {
    var names = list.querySelectorAll("[data-short]");
    Array.prototype.forEach.call(names, function (el) {
      if (el.getAttribute("data-full") === null) { el.setAttribute("data-full", el.textContent); }
      el.textContent = el.getAttribute("data-full");
      el.classList.remove("wrap");
    });
    Array.prototype.forEach.call(names, function (el) {
      if (el.scrollWidth > el.clientWidth + 1) { el.textContent = el.getAttribute("data-short"); }
    });
    Array.prototype.forEach.call(names, function (el) {
      if (el.scrollWidth > el.clientWidth + 1) { el.classList.add("wrap"); }
    });
  }

  function show() {
    var lists = box.querySelectorAll(".pageable");
    Array.prototype.forEach.call(lists, function (list) {
      var pages = paginate(list);
      var current = turn % pages.length;
      pages.forEach(function (page, i) {
        page.forEach(function (item) { item.classList.toggle("off", i !== current); });
      });
      var label = list.closest(".column").querySelector(".pageno");
      if (label) {
        label.textContent = pages.length < 2 ? "" : list.getAttribute("data-pager")
          .replace("{page}", String(current + 1)).replace("{pages}", String(pages.length));
      }
    });
  }

  function fit() {
    document.body.classList.toggle("paged", wide.matches);
    show();
  }

  function poll() {
    fetch(src + "&v=" + encodeURIComponent(version), { cache: "no-store" })
      .then(function (r) {
        reached(r.ok);
        return r.ok ? r.json() : null;
      })
      .then(function (data) {
        if (data && data.html !== undefined) {
          box.innerHTML = data.html;
          version = String(data.version);
          box.setAttribute("data-version", version);
          show();
        }
      })
      .catch(function () { reached(false); /* the server restarts or the network drops: try again */ })
      .then(function () { setTimeout(poll, 1000); });
  }

  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(fit, 150);
  });
  setInterval(function () { turn += 1; show(); }, every);
  fit();
  // the rows grow once the wall's font has loaded: measure them again then
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(fit); }
  setTimeout(poll, 1000);
})();
