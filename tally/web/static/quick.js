// The quick-result form of a table page: once a winner is chosen, offer only the reasons that
// fit (what the winner did, what the loser did; "drawn" only when nobody won), named after the
// players. Without script the form shows every reason and the server refuses a mismatch.
(function () {
  "use strict";
  var winners = document.getElementById("winner");
  var reasons = document.getElementById("reasons");
  var points = document.getElementById("points");
  if (!winners || !reasons) { return; }
  var players = [];
  winners.querySelectorAll("input[name=winner]").forEach(function (r) {
    if (r.value) { players.push(r.value); }
  });
  function update() {
    var chosen = winners.querySelector("input[name=winner]:checked");
    var winner = chosen ? chosen.value : players[0];
    var loser = players[0] === winner ? players[1] : players[0];
    var first = null;
    var kept = false;
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
      if (fits && !first) { first = input; }
      if (fits && input.checked) { kept = true; }
    });
    if (!kept && first) { first.checked = true; }
    if (points) { points.hidden = !winner; }
  }
  winners.addEventListener("change", update);
  update();
})();
