// The new-event form: show only the settings of the kind chosen (without script every
// setting shows; the server takes only the chosen kind's).
(function () {
  var kind = document.getElementById("kind");
  if (!kind) { return; }
  function show() {
    document.querySelectorAll(".kind-only").forEach(function (box) {
      var mine = box.getAttribute("data-kinds").split(" ").indexOf(kind.value) >= 0;
      box.classList.toggle("kind-hidden", !mine);
    });
  }
  kind.addEventListener("change", show);
  show();
})();
