// Live standings: ask the server every second whether anything changed (the audit log's
// newest entry) and, if so, put the new content in place. No reload, no library.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box) { return; }
  var version = box.getAttribute("data-version");
  var src = box.getAttribute("data-src");
  function poll() {
    fetch(src + "&v=" + encodeURIComponent(version), { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.html !== undefined) {
          box.innerHTML = data.html;
          version = String(data.version);
          box.setAttribute("data-version", version);
        }
      })
      .catch(function () { /* the server restarts or the network drops: try again */ })
      .then(function () { setTimeout(poll, 1000); });
  }
  setTimeout(poll, 1000);
})();
