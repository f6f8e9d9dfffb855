// The quick-result form of a table page: once a winner is chosen, offer only the reasons that
// fit (what the winner did, what the loser did; "drawn" only when nobody won), named after the
// players, and only the game points the reason chosen may give. Without script the form shows
// every reason and every number, and the server refuses what does not fit.
(function () {
  "use strict";
  function setup() {
    var winners = document.getElementById("winner");
    var reasons = document.getElementById("reasons");
    var points = document.getElementById("points");
    if (!winners || !reasons || !points) { return; }
    var players = [];
    winners.querySelectorAll("input[name=winner]").forEach(function (r) {
      if (r.value) { players.push(r.value); }
    });
    function choose(inputs) {
      // keep the choice if it is still offered, else take the first offered
      var offered = inputs.filter(function (i) { return !i.disabled; });
      if (offered.length && !offered.some(function (i) { return i.checked; })) {
        offered[0].checked = true;
      }
    }
    function offerPoints() {
      var reason = reasons.querySelector("input[name=reason]:checked");
      var allowed = reason ? reason.parentNode.getAttribute("data-points").split(" ") : [];
      var inputs = Array.prototype.slice.call(points.querySelectorAll("input[name=points]"));
      inputs.forEach(function (input) {
        input.disabled = allowed.indexOf(input.value) < 0;
        input.parentNode.hidden = input.disabled;
      });
      choose(inputs);
      points.hidden = inputs.every(function (i) { return i.disabled; });
    }
    function offerReasons() {
      var chosen = winners.querySelector("input[name=winner]:checked");
      var winner = chosen ? chosen.value : players[0];
      var loser = players[0] === winner ? players[1] : players[0];
      var inputs = [];
      reasons.querySelectorAll("label[data-side]").forEach(function (label) {
        var side = label.getAttribute("data-side");
        var fits = winner ? side !== "nobody" : side === "nobody";
        var input = label.querySelector("input");
        label.hidden = !fits;
        input.disabled = !fits;
        if (fits && side !== "nobody") {
          var who = side === "winner" ? winner : loser;
          label.querySelector("span").textContent = who + " " + label.getAttribute("data-did");
        }
        inputs.push(input);
      });
      choose(inputs);
      offerPoints();
    }
    winners.addEventListener("change", offerReasons);
    reasons.addEventListener("change", offerPoints);
    offerReasons();
  }
  // (static/taps.js puts the server's page in place after a tap: set the new form up)
  document.addEventListener("tally:page", setup);
  setup();
})();
