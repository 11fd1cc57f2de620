// Paste-a-log matcher: the browser twin of errkb/matcher.py. It runs the rules and
// templates exported to api/v1/matcher.json, so the two never define matching twice;
// tests/test_browser_match.py holds their rankings equal.
(function () {
  "use strict";

  function Matcher(data) {
    this.rules = data.rules.map(function (r) { return [new RegExp(r[0], "g"), r[1]]; });
    this.tokenRe = new RegExp(data.token_re, "g");
    this.templates = data.templates;
    // One entry's bad pattern must not take the page down: skip it and say so.
    var skipped = this.skipped = [];
    this.patterns = [];
    data.patterns.forEach(function (p) {
      try {
        this.patterns.push({ id: p.id, re: new RegExp(p.regex, "i"), needles: p.needles });
      } catch (err) {
        skipped.push({ id: p.id, regex: p.regex, error: String(err && err.message || err) });
        if (window.console) console.error("errkb: skipped a pattern of " + p.id + ": " + err);
      }
    }, this);
    this.window = data.window;
    // Distinct trigger-word sets in first-seen order, as errkb/matcher.py builds them.
    // Prototype-free dictionaries: a template word may be 'constructor'.
    var seen = Object.create(null), self0 = this;
    this.scanAll = false;
    this.triggerSets = [];
    this.vocab = Object.create(null);
    data.templates.forEach(function (t) {
      if (!t.triggers.length) { self0.scanAll = true; return; }
      var key = t.triggers.join(" ");
      if (seen[key]) return;
      seen[key] = 1;
      self0.triggerSets.push(t.triggers);
      t.triggers.forEach(function (w) { self0.vocab[w] = 1; });
    });
    this.minTokens = data.min_tokens;
    this.minScore = data.min_score;
    this.strong = data.strong;
    this.skipMax = data.skip_max;
    this.cap = data.cap;
    this.symptoms = {};
    var symptoms = this.symptoms;
    data.symptoms.forEach(function (id) { symptoms[id] = 1; });
  }

  Matcher.prototype.cleanLine = function (line) {
    for (var i = 0; i < this.rules.length; i++) {
      var replacement = this.rules[i][1];
      line = line.replace(this.rules[i][0], function () { return replacement; });
    }
    return line;
  };

  Matcher.prototype.tokens = function (text) {
    return text.toLowerCase().match(this.tokenRe) || [];
  };

  function longestPrefix(joined, toks, minimum) {
    var need = minimum;
    if (toks.length < need || joined.indexOf(" " + toks.slice(0, need).join(" ") + " ") < 0) return null;
    var lo = need, hi = toks.length;
    while (lo < hi) {
      var mid = Math.floor((lo + hi + 1) / 2);
      if (joined.indexOf(" " + toks.slice(0, mid).join(" ") + " ") >= 0) lo = mid; else hi = mid - 1;
    }
    return [lo, joined.indexOf(" " + toks.slice(0, lo).join(" ") + " ") + 1];
  }

  Matcher.prototype.rankKey = function (score, line, id) {
    var symptom = this.symptoms[id] ? 1 : 0;
    return score >= this.strong ? [0, symptom, line, -score, id] : [1, symptom, -score, line, id];
  };

  function containsAny(line, words) {
    for (var i = 0; i < words.length; i++) if (line.indexOf(words[i]) >= 0) return true;
    return false;
  }

  // Lines worth cleaning: within the window of a line holding the rarest trigger word of a
  // template in this log (see matcher.py). Words are maximal runs of [a-z_].
  Matcher.prototype.candidates = function (lowered) {
    var n = lowered.length, marked = [], i, j, self = this;
    for (i = 0; i < n; i++) marked.push(this.scanAll);
    if (this.scanAll) return marked;
    var index = Object.create(null);
    for (i = 0; i < n; i++) {
      var found = lowered[i].match(/[a-z_]+/g) || [], inLine = Object.create(null);
      for (j = 0; j < found.length; j++) {
        var w = found[j];
        if (self.vocab[w] === 1 && !inLine[w]) {
          inLine[w] = 1;
          (index[w] = index[w] || []).push(i);
        }
      }
    }
    var hits = Object.create(null);
    this.triggerSets.forEach(function (ws) {
      var rarest = ws[0];
      ws.forEach(function (w) { if ((index[w] || []).length < (index[rarest] || []).length) rarest = w; });
      (index[rarest] || []).forEach(function (k) { hits[k] = 1; });
    });
    Object.keys(hits).forEach(function (k) {
      var at = Number(k);
      for (j = Math.max(0, at - self.window[0]); j < Math.min(n, at + self.window[1] + 1); j++) marked[j] = true;
    });
    return marked;
  };

  Matcher.prototype.match = function (log, top) {
    var self = this;
    var ansi = this.rules[0][0];
    var rawLines = log.split(/\r\n|\r|\n/);
    var lowered = log.replace(ansi, "").toLowerCase().split(/\r\n|\r|\n/);
    var cleaned = {};
    function clean(i) {
      if (!(i in cleaned)) cleaned[i] = self.cleanLine(rawLines[i]);
      return cleaned[i];
    }
    var stream = [], lineOf = [], starts = {}, offset = 1, previous = -1;
    function push(tok, i) {
      starts[offset] = stream.length;
      offset += tok.length + 1;
      stream.push(tok);
      lineOf.push(i);
    }
    this.candidates(lowered).forEach(function (keep, i) {
      if (!keep) return;
      if (i !== previous + 1 && stream.length) push("|", i);
      previous = i;
      self.tokens(clean(i)).forEach(function (tok) { push(tok, i); });
    });
    var joined = " " + stream.join(" ") + " ";
    var best = {};
    function offer(id, score, line) {
      var cur = best[id];
      if (!cur || score > cur[0] || (score === cur[0] && line < cur[1])) best[id] = [score, line];
    }
    this.templates.forEach(function (t) {
      for (var skip = 0; skip <= self.skipMax; skip++) {
        var found = longestPrefix(joined, t.tokens.slice(skip), self.minTokens);
        if (!found) continue;
        var score = Math.min(1.0, found[0] / Math.min(t.tokens.length, self.cap));
        if (score >= self.minScore) offer(t.id, score, lineOf[starts[found[1]]]);
      }
    });
    this.patterns.forEach(function (p) {
      for (var i = 0; i < rawLines.length; i++) {
        if (p.needles !== null && !containsAny(lowered[i], p.needles)) continue;
        if (p.re.test(clean(i))) { offer(p.id, 1.0, i); break; }
      }
    });
    var ranked = Object.keys(best).map(function (id) { return [id, best[id][0], best[id][1]]; });
    ranked.sort(function (a, b) {
      var ka = self.rankKey(a[1], a[2], a[0]), kb = self.rankKey(b[1], b[2], b[0]);
      for (var i = 0; i < ka.length; i++) {
        if (ka[i] < kb[i]) return -1;
        if (ka[i] > kb[i]) return 1;
      }
      return 0;
    });
    return ranked.slice(0, top).map(function (r) {
      return { id: r[0], score: Math.round(r[1] * 1000) / 1000, line: r[2] + 1,
               matched: rawLines[r[2]].replace(ansi, "").trim() };
    });
  };

  window.ErrkbMatcher = Matcher;  // for tools and for the test that runs the real corpus

  function el(tag, text, attrs) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  function setup(root) {
    var base = root.getAttribute("data-api");
    var repo = root.getAttribute("data-repo");
    var site = root.getAttribute("data-site");
    var input = root.querySelector("textarea");
    var out = root.querySelector(".errkb-results");
    Promise.all([fetch(base + "matcher.json").then(function (r) { return r.json(); }),
                 fetch(base + "index.json").then(function (r) { return r.json(); })])
      .then(function (loaded) {
        var matcher = new Matcher(loaded[0]);
        var byId = {};
        loaded[1].entries.forEach(function (e) { byId[e.id] = e; });
        window.errkbMatcher = matcher;
        if (matcher.skipped.length) {
          root.appendChild(el("p", "Note: " + matcher.skipped.length + " pattern(s) could not be compiled " +
            "by this browser and are skipped (" + matcher.skipped.map(function (s) { return s.id; }).join(", ") +
            "); those entries can still match by their messages.", { "class": "errkb-skipped" }));
        }
        root.setAttribute("data-ready", "true");
        root.querySelector("button").addEventListener("click", function () {
          var results = matcher.match(input.value, 5);
          out.replaceChildren();
          if (!results.length) {
            var lines = input.value.split(/\r\n|\r|\n/).map(function (l) { return matcher.cleanLine(l).trim(); })
              .filter(function (l) { return /error|exception|failed|killed|out of memory/i.test(l); }).slice(0, 15);
            var body = "Log lines (normalised by errkb):\n\n```\n" + lines.join("\n") + "\n```\n\nEngine and version:\n\nGPU:\n";
            var url = repo + "/issues/new?" + new URLSearchParams({ title: "New error: " + (lines[0] || "").slice(0, 80), labels: "new-error", body: body });
            var p = el("p", "No entry matches this log. ", { "class": "errkb-nomatch" });
            p.appendChild(el("a", "Report it as a new error", { href: url }));
            out.appendChild(p);
            return;
          }
          var list = el("ol", null, { "class": "errkb-ranking" });
          results.forEach(function (r) {
            var e = byId[r.id];
            var item = el("li", null, { "data-id": r.id, "data-score": String(r.score), "data-line": String(r.line) });
            item.appendChild(el("a", r.id + ": " + e.title, { href: site + "errors/" + e.slug + "/" }));
            item.appendChild(el("div", "score " + r.score.toFixed(2) + ", line " + r.line + ": " + r.matched));
            list.appendChild(item);
          });
          out.appendChild(list);
        });
      });
  }

  function init() {
    var root = document.getElementById("errkb-match");
    if (root && !root.getAttribute("data-ready")) setup(root);
  }
  if (window.document$) window.document$.subscribe(init); else document.addEventListener("DOMContentLoaded", init);
})();
