// The search page: Pagefind's index (site/pagefind/, built after the site) queried in the
// browser. Only the chunks a query's words need are fetched. Results are built as DOM nodes
// from text, so nothing in an entry reaches the page as markup.
(function () {
  "use strict";

  var MAX = 10;
  // Words too common to narrow a search: each query word costs a download of its index chunk,
  // and these have the largest ones. Dropped unless nothing else is left.
  var STOP = ["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it",
    "no", "not", "of", "on", "or", "that", "the", "this", "to", "was", "with"];

  function essential(query) {
    var words = query.split(/\s+/).filter(Boolean);
    var kept = words.filter(function (w) { return STOP.indexOf(w.toLowerCase()) < 0; });
    return (kept.length ? kept : words).join(" ");
  }

  function excerptNodes(html) {
    // Pagefind's excerpt is escaped text with <mark> around the hits: keep those two, as text.
    var doc = new DOMParser().parseFromString("<p>" + html + "</p>", "text/html");
    var out = document.createDocumentFragment();
    doc.body.firstChild.childNodes.forEach(function (node) {
      if (node.nodeName === "MARK") {
        var mark = document.createElement("mark");
        mark.textContent = node.textContent;
        out.appendChild(mark);
      } else {
        out.appendChild(document.createTextNode(node.textContent));
      }
    });
    return out;
  }

  function render(out, query, total, results) {
    out.textContent = "";
    var head = document.createElement("p");
    head.textContent = total
      ? total + (total === 1 ? " page" : " pages") + " for \u201c" + query + "\u201d" +
        (total > results.length ? ", the first " + results.length + " below" : "")
      : "No page holds \u201c" + query + "\u201d. Try fewer words, or paste the whole log.";
    out.appendChild(head);
    if (!results.length) return;
    var list = document.createElement("ol");
    list.className = "errkb-search-list";
    results.forEach(function (r) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = r.url;
      link.textContent = (r.meta && r.meta.title) || r.url;
      item.appendChild(link);
      var text = document.createElement("p");
      text.appendChild(excerptNodes(r.excerpt || ""));
      item.appendChild(text);
      list.appendChild(item);
    });
    out.appendChild(list);
  }

  function start() {
    var form = document.getElementById("errkb-search");
    if (!form || form.getAttribute("data-ready")) return;
    form.setAttribute("data-ready", "true");
    var input = form.querySelector("[name=q]");
    var out = document.querySelector(".errkb-search-results");
    var bundle = new URL(form.getAttribute("data-bundle"), window.location.href);
    var pagefind = null;
    var timer = null;
    var latest = 0;

    function load() {
      if (!pagefind) {
        pagefind = import(new URL("pagefind.js", bundle).href).then(function (pf) {
          // Result URLs are site-relative: root them where this copy of the site is served.
          return pf.options({ baseUrl: new URL("../", bundle).pathname }).then(function () {
            return pf;
          });
        });
      }
      return pagefind;
    }

    function run(query) {
      var ticket = ++latest;
      var url = new URL(window.location.href);
      if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
      window.history.replaceState(null, "", url.href);
      if (!query) { out.textContent = ""; return; }
      load()
        .then(function (pf) { return pf.search(essential(query)); })
        .then(function (found) {
          return Promise.all(found.results.slice(0, MAX).map(function (r) { return r.data(); }))
            .then(function (data) {
              if (ticket === latest) render(out, query, found.results.length, data);
            });
        })
        .catch(function () {
          if (ticket === latest) {
            out.textContent = "The search index could not be loaded (it is built with the site: " +
              "mkdocs build, or errkb search-index SITE_DIR).";
          }
        });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      run(input.value.trim());
    });
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { run(input.value.trim()); }, 250);
    });
    var initial = new URL(window.location.href).searchParams.get("q");
    if (initial) { input.value = initial; run(initial.trim()); }
    input.focus();
  }

  if (window.document$) window.document$.subscribe(start); else document.addEventListener("DOMContentLoaded", start);
})();
