// The new-event form: show only the settings of the kind chosen. Which fields are a kind's
// comes from the table of options (the page's #kind-fields); without script every setting
// shows, and the server takes only the chosen kind's.
(function () {
  var kind = document.getElementById("kind");
  var table = document.getElementById("kind-fields");
  if (!kind || !table) { return; }
  var fields = JSON.parse(table.textContent);
  function show() {
    var mine = fields[kind.value] || [];
    document.querySelectorAll("#kind-options .option").forEach(function (box) {
      box.classList.toggle("kind-hidden", mine.indexOf(box.id.slice("option-".length)) < 0);
    });
  }
  kind.addEventListener("change", show);
  show();
})();
