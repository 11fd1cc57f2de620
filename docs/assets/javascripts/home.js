// Small behaviours of the index pages; the home page's search box is a plain form to the
// search page.
(function () {
  "use strict";

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

  function start() { filters(); }
  if (window.document$) window.document$.subscribe(start); else document.addEventListener("DOMContentLoaded", start);
})();
