// The home page's search box hands its words to Material's own search (the same index and
// results as the header's search), so there is one search, reachable above the fold. Loaded on
// every page, it also names Material's search dialog for screen readers.
(function () {
  "use strict";

  function init() {
    // Material's search dialog has no accessible name (Lighthouse, aria-dialog-name).
    var dialog = document.querySelector(".md-search[role=dialog]");
    if (dialog && !dialog.hasAttribute("aria-label")) dialog.setAttribute("aria-label", "Search");
    var form = document.querySelector(".errkb-home-search");
    if (!form || form.getAttribute("data-ready")) return;
    form.setAttribute("data-ready", "true");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var toggle = document.querySelector("[data-md-toggle=search]");
      var input = document.querySelector(".md-search__input");
      if (!toggle || !input) return;
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
      input.value = form.querySelector("[name=q]").value;
      input.focus();
      ["input", "keyup"].forEach(function (type) { input.dispatchEvent(new Event(type)); });
    });
  }
  // Index pages (GPUs, models): a box that keeps the rows holding every word typed.
  function filters() {
    document.querySelectorAll("input.errkb-filter:not([data-ready])").forEach(function (input) {
      input.setAttribute("data-ready", "true");
      var table = Array.prototype.filter.call(document.querySelectorAll("table"), function (t) {
        return input.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING;
      })[0];
      if (!table) return;
      input.addEventListener("input", function () {
        var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
        table.querySelectorAll("tbody tr").forEach(function (row) {
          var text = row.textContent.toLowerCase();
          row.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
        });
      });
    });
  }

  function start() { init(); filters(); }
  if (window.document$) window.document$.subscribe(start); else document.addEventListener("DOMContentLoaded", start);
})();
