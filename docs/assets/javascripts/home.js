// Small behaviours of the index pages; the home page's search box is a plain form to the
// search page.
(function () {
  "use strict";

  // Index pages (GPUs, models): a box that keeps the rows holding every word typed, and
  // selects on one column each (a maker, a band of memory or of parameters).
  function number(text) {
    var m = text.replace(/,/g, "").match(/-?\d+(\.\d+)?/);
    return m ? parseFloat(m[0]) : NaN;
  }

  function keeps(select, row) {
    var value = select.value;
    if (!value) return true;
    var cell = row.cells[parseInt(select.getAttribute("data-col"), 10)];
    if (!cell) return false;
    var text = cell.textContent.trim();
    if (select.getAttribute("data-kind") === "equals") return text === value;
    var bounds = value.split("-").map(parseFloat);
    var x = number(text);
    return x >= bounds[0] && x <= bounds[1];
  }

  function filters() {
    document.querySelectorAll("input.errkb-filter:not([data-ready])").forEach(function (input) {
      input.setAttribute("data-ready", "true");
      var box = input.closest(".errkb-filters") || input;
      var table = Array.prototype.filter.call(document.querySelectorAll("table"), function (t) {
        return box.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING;
      })[0];
      if (!table) return;
      var selects = Array.prototype.slice.call(box.querySelectorAll("select.errkb-col-filter"));
      function apply() {
        var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
        table.querySelectorAll("tbody tr").forEach(function (row) {
          var text = row.textContent.toLowerCase();
          row.hidden = !(words.every(function (w) { return text.indexOf(w) >= 0; }) &&
            selects.every(function (s) { return keeps(s, row); }));
        });
      }
      input.addEventListener("input", apply);
      selects.forEach(function (s) { s.addEventListener("change", apply); });
    });
  }

  function start() { filters(); }
  if (window.document$) window.document$.subscribe(start); else document.addEventListener("DOMContentLoaded", start);
})();
