// Paste-a-log matcher: the browser twin of errkb/matcher.py. It runs the rules and
// templates exported to api/v1/matcher.json, so the two never define matching twice;
// tests/test_browser_match.py holds their rankings equal.
(function () {
  "use strict";

  function total(ws) {
    var out = 0.0;
    for (var i = 0; i < ws.length; i++) out += ws[i];
    return out;
  }

  function round3(x) { return Math.floor(x * 1000 + 0.5) / 1000; }

  function sortedKeys(obj) { return Object.keys(obj).sort(); }

  // Smallest index i with list[i] > x (Python's bisect_right), and with list[i] >= x.
  function bisectRight(list, x) {
    var lo = 0, hi = list.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (x < list[mid]) hi = mid; else lo = mid + 1; }
    return lo;
  }
  function bisectLeft(list, x) {
    var lo = 0, hi = list.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (list[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }

  function compareKeys(ka, kb) {
    for (var i = 0; i < ka.length; i++) {
      if (ka[i] < kb[i]) return -1;
      if (ka[i] > kb[i]) return 1;
    }
    return 0;
  }

  function Matcher(data) {
    var self = this;
    this.rules = data.rules.map(function (r) { return [new RegExp(r[0], "g"), r[1]]; });
    this.tokenRe = new RegExp(data.token_re, "g");
    this.weak = Object.create(null);
    data.stop.concat(data.placeholders).forEach(function (w) { self.weak[w] = 1; });
    var naming = Object.create(null);
    data.naming.forEach(function (pair) { naming[pair[0] + " " + pair[1]] = 1; });
    this.templates = data.templates.map(function (t) {
      var ws = t.tokens.map(function (x) { return data.weights[x]; });
      // The positions holding a name (named_at in align.py).
      var named = [], k;
      for (k = 2; k < t.tokens.length; k++) {
        if (naming[t.tokens[k - 2] + " " + t.tokens[k - 1]] && !self.weak[t.tokens[k]]) named.push(k);
      }
      return { id: t.id, tokens: t.tokens, ws: ws, total: total(ws), generic: t.generic === true, named: named };
    });
    // One entry's bad pattern must not take the page down: skip it and say so.
    var skipped = this.skipped = [];
    this.patterns = [];
    data.patterns.forEach(function (p) {
      try {
        this.patterns.push({ id: p.id, re: new RegExp(p.regex, "i"), needles: p.needles, generic: p.generic === true });
      } catch (err) {
        skipped.push({ id: p.id, regex: p.regex, error: String(err && err.message || err) });
        if (window.console) console.error("errkb: skipped a pattern of " + p.id + ": " + err);
      }
    }, this);
    this.window = data.window;
    this.minTokens = data.min_tokens;
    this.minScore = data.min_score;
    this.strong = data.strong;
    this.gap = data.gap;
    this.contradicted = data.contradicted;
    this.rareWeight = data.rare_weight;
    this.shortTokens = data.short_tokens;
    this.shortGap = data.short_gap;
    this.shortMinScore = data.short_min_score;
    this.symptoms = data.symptoms;
    // Prototype-free dictionaries: a template word may be 'constructor'.
    this.vocab = Object.create(null);
    this.allTokens = Object.create(null);
    this.templates.forEach(function (t) {
      t.tokens.forEach(function (w) {
        self.allTokens[w] = 1;
        if (!self.weak[w]) self.vocab[w] = 1;
      });
    });
    this.contextLines = data.context.lines;
    this.phaseOf = Object.create(null);
    Object.keys(data.context.phases).forEach(function (phase) {
      data.context.phases[phase].forEach(function (w) { self.phaseOf[w] = phase; });
    });
    this.entryPhases = data.context.entries;
    this.links = data.context.links;
    var lex = data.lexical;
    this.ids = lex.ids;
    this.indexOf = Object.create(null);
    this.ids.forEach(function (id, k) { self.indexOf[id] = k; });
    this.errorWords = lex.error_words;
    this.queryLines = lex.query_lines;
    this.lexicalFloor = lex.floor;
    this.lexicalCoverage = lex.coverage;
    this.lexicalShortFloor = lex.short_floor;
    this.lexicalFull = lex.full;
    this.lexicalUnknown = lex.unknown;
    this.lexicalMargin = lex.margin;
    this.possibleMax = lex.possible_max;
    this.genericMax = data.generic_max;
    this.lexicalScale = lex.scale;
    this.postings = Object.create(null);
    this.weight = Object.create(null);
    this.bestWeight = Object.create(null);
    Object.keys(lex.postings).forEach(function (term) {
      self.postings[term] = lex.postings[term];
      var row = Object.create(null), most = -Infinity;
      lex.postings[term].forEach(function (dw) { row[dw[0]] = dw[1]; most = Math.max(most, dw[1]); });
      self.bestWeight[term] = most;
      self.weight[term] = row;
    });
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

  Matcher.prototype.contentTokens = function (text) {
    var weak = this.weak;
    return this.tokens(text).filter(function (t) { return !weak[t]; });
  };

  // Content tokens, then adjacent pairs ("out memory"): the second stage's terms.
  Matcher.prototype.lineTerms = function (text) {
    var toks = this.contentTokens(text), out = toks.slice();
    for (var i = 0; i + 1 < toks.length; i++) out.push(toks[i] + " " + toks[i + 1]);
    return out;
  };

  function containsAny(line, words) {
    for (var i = 0; i < words.length; i++) if (line.indexOf(words[i]) >= 0) return true;
    return false;
  }

  // Anchor words of a template in this log (see anchor_words in errkb/matcher.py).
  Matcher.prototype.anchorWords = function (t, count) {
    var whole = t.total, rest = whole, content = [], taken = [], seen = Object.create(null), k;
    for (k = 0; k < t.tokens.length; k++) if (!this.weak[t.tokens[k]]) content.push(k);
    content.sort(function (a, b) {
      var ca = count(t.tokens[a]), cb = count(t.tokens[b]);
      return ca !== cb ? ca - cb : a - b;
    });
    for (var i = 0; i < content.length; i++) {
      if (rest < this.minScore * whole) break;
      k = content[i];
      if (!seen[t.tokens[k]]) { seen[t.tokens[k]] = 1; taken.push(t.tokens[k]); }
      rest -= t.ws[k];
    }
    return taken;
  };

  // Lines worth cleaning, within the window of a line holding an anchor word, and each
  // template's anchor words. Words are maximal runs of [a-z_].
  Matcher.prototype.candidates = function (lowered) {
    var n = lowered.length, marked = [], i, j, self = this;
    var index = Object.create(null);
    for (i = 0; i < n; i++) {
      marked.push(false);
      var found = lowered[i].match(/[a-z_]+/g) || [], inLine = Object.create(null);
      for (j = 0; j < found.length; j++) {
        var w = found[j];
        if (self.vocab[w] === 1 && !inLine[w]) {
          inLine[w] = 1;
          (index[w] = index[w] || []).push(i);
        }
      }
    }
    function count(w) { return (index[w] || []).length; }
    var anchors = this.templates.map(function (t) { return self.anchorWords(t, count); });
    var hits = Object.create(null);
    anchors.forEach(function (ws) {
      ws.forEach(function (w) { (index[w] || []).forEach(function (k) { hits[k] = 1; }); });
    });
    Object.keys(hits).forEach(function (k) {
      var at = Number(k);
      for (j = Math.max(0, at - self.window[0]); j < Math.min(n, at + self.window[1] + 1); j++) marked[j] = true;
    });
    return [marked, anchors];
  };

  // [template positions matched, the stream position of each] (align in align.py).
  function align(occurs, j, p, seg, gap) {
    var after = [], before = [], atAfter = [], atBefore = [], here = seg[p], cur = p, k, found, i, q;
    for (k = j + 1; k < occurs.length; k++) {
      found = occurs[k];
      if (!found || !found.length) continue;
      i = bisectRight(found, cur);
      if (i < found.length) {
        q = found[i];
        if (q - cur - 1 <= gap && seg[q] === here) { after.push(k); atAfter.push(q); cur = q; }
      }
    }
    cur = p;
    for (k = j - 1; k >= 0; k--) {
      found = occurs[k];
      if (!found || !found.length) continue;
      i = bisectLeft(found, cur) - 1;
      if (i >= 0) {
        q = found[i];
        if (cur - q - 1 <= gap && seg[q] === here) { before.push(k); atBefore.push(q); cur = q; }
      }
    }
    return [before.reverse().concat([j], after), atBefore.reverse().concat([p], atAfter)];
  }

  // Template positions skipped where the log, too, holds other tokens (contradicted in align.py).
  function contradicted(matched, at) {
    var out = [], a, k;
    for (a = 1; a < matched.length; a++) {
      if (matched[a] - matched[a - 1] > 1 && at[a] - at[a - 1] > 1) {
        for (k = matched[a - 1] + 1; k < matched[a]; k++) out.push(k);
      }
    }
    return out;
  }

  // The template token just before the alignment, when the log holds another word in its place
  // on the same line and few entries hold the token (replaced_first in align.py).
  function replacedFirst(matched, at, ws, stream, lineOf, rare, weak) {
    var first = matched[0], p = at[0];
    if (first > 0 && p > 0 && lineOf[p - 1] === lineOf[p] && ws[first - 1] >= rare && !weak[stream[p - 1]]) return [first - 1];
    return [];
  }

  // Whether the log names another attribute, module or import where the template names one
  // (`named`, its positions; renamed in align.py): the name is the error, so no match.
  function renamed(matched, at, named, stream, lineOf, weak) {
    var pos = Object.create(null), a, n, k, q;
    for (a = 0; a < matched.length; a++) pos[matched[a]] = at[a];
    for (n = 0; n < named.length; n++) {
      k = named[n];
      q = pos[k - 1];
      if (q === undefined || pos[k] !== undefined || q + 1 >= stream.length) continue;
      if (lineOf[q + 1] === lineOf[q] && !weak[stream[q + 1]]) return true;
    }
    return false;
  }

  Matcher.prototype.alignTemplate = function (t, words, occurs, ceiling, seg, stream, lineOf) {
    var seeds = [], at = Object.create(null), self = this;
    words.forEach(function (w) {
      at[w] = [];
      t.tokens.forEach(function (x, k) { if (x === w) at[w].push(k); });
      // Every position of a word holds the same stream positions (as in Python).
      if (at[w].length) (occurs[at[w][0]] || []).forEach(function (p) { seeds.push(p); });
    });
    seeds.sort(function (a, b) { return a - b; });
    var gap = t.tokens.length < self.shortTokens ? self.shortGap : self.gap;
    var found = null, covered = -1, s, i;
    for (s = 0; s < seeds.length; s++) {
      var p = seeds[s];
      if (p <= covered) continue;
      var js = at[stream[p]];
      for (i = 0; i < js.length; i++) {
        var r = align(occurs, js[i], p, seg, gap);
        // Only an alignment that began where the template begins covers its span (as in Python).
        if (r[0][0] === 0) covered = Math.max(covered, r[1][r[1].length - 1]);
        if (r[0].length < self.minTokens) continue;
        var got = total(r[0].map(function (k) { return t.ws[k]; }));
        // Contradictions only take weight away (as in Python).
        if (found === null || got > found[0]) {
          if (t.named.length && renamed(r[0], r[1], t.named, stream, lineOf, self.weak)) continue;
          var against = replacedFirst(r[0], r[1], t.ws, stream, lineOf, self.rareWeight, self.weak).concat(contradicted(r[0], r[1]));
          got -= self.contradicted * total(against.map(function (k) { return t.ws[k]; }));
          if (found === null || got > found[0]) found = [got, r[1][0]];
        }
        // Every token aligned, or the ceiling reached: no later seed can do better (as in Python).
        if (r[0].length === t.tokens.length || (found !== null && found[0] >= ceiling)) return found;
      }
    }
    return found;
  };

  Matcher.prototype.scores = function (terms) {
    var acc = [], self = this, d;
    for (d = 0; d < this.ids.length; d++) acc.push(0.0);
    terms.forEach(function (term) {
      (self.postings[term] || []).forEach(function (dw) { acc[dw[0]] += dw[1]; });
    });
    return acc;
  };

  // Whether the best entry is offered when nothing else matched (stands_out in matcher.py).
  Matcher.prototype.standsOut = function (first, acc, ranked, terms) {
    var self = this;
    if (ranked.length > 1 && first < this.lexicalMargin * acc[ranked[1]]) return false;
    var words = 0, unknown = 0, reach = 0.0;
    terms.forEach(function (t) {
      if (t.indexOf(" ") >= 0) return;
      words++;
      if (self.bestWeight[t] === undefined) unknown++;
    });
    if (unknown > this.lexicalUnknown * words) return false;
    terms.forEach(function (term) { if (self.bestWeight[term] !== undefined) reach += self.bestWeight[term]; });
    if (first >= this.lexicalFloor && first >= this.lexicalCoverage * reach) return true;
    return first >= this.lexicalShortFloor && first >= this.lexicalFull * reach;
  };

  // Second-stage matches: [id, shown score, line index], best first (possible in matcher.py);
  // `gated` when nothing else matched.
  Matcher.prototype.possible = function (lowered, clean, gated) {
    var n = lowered.length, picked = [], i, self = this;
    var errorLines = 0;
    for (i = 0; i < n && errorLines < this.queryLines; i++) {
      if (!containsAny(lowered[i], this.errorWords)) continue;
      errorLines++;
      [i, i + 1].forEach(function (k) {
        if (k < n && (!picked.length || picked[picked.length - 1] < k)) picked.push(k);
      });
    }
    if (!picked.length) return [];
    var perLine = picked.map(function (k) {
      var set = Object.create(null);
      self.lineTerms(clean(k)).forEach(function (t) { set[t] = 1; });
      return sortedKeys(set);
    });
    var union = Object.create(null);
    perLine.forEach(function (ts) { ts.forEach(function (t) { union[t] = 1; }); });
    var terms = sortedKeys(union);
    var acc = this.scores(terms);
    var ranked = [];
    for (var d = 0; d < acc.length; d++) if (acc[d] > 0) ranked.push(d);
    ranked.sort(function (a, b) {
      if (acc[a] !== acc[b]) return acc[b] - acc[a] > 0 ? 1 : -1;
      return self.ids[a] < self.ids[b] ? -1 : self.ids[a] > self.ids[b] ? 1 : 0;
    });
    if (!ranked.length) return [];
    var first = acc[ranked[0]];
    if (gated && !this.standsOut(first, acc, ranked, terms)) return [];
    ranked = [ranked[0]].concat(ranked.slice(1).filter(function (d) { return acc[d] >= first / 2; }));
    return ranked.map(function (d) {
      var bestLine = picked[0], best = -1.0;
      picked.forEach(function (k, x) {
        var got = 0.0;
        perLine[x].forEach(function (term) {
          var row = self.weight[term];
          got += row && row[d] !== undefined ? row[d] : 0.0;
        });
        if (got > best) { bestLine = k; best = got; }
      });
      return [self.ids[d], round3(self.possibleMax * acc[d] / (acc[d] + self.lexicalScale)), bestLine];
    });
  };

  Matcher.prototype.phaseAt = function (lowered, line) {
    var n = lowered.length;
    for (var distance = 0; distance <= this.contextLines; distance++) {
      var ks = distance ? [line - distance, line + distance] : [line];
      for (var x = 0; x < ks.length; x++) {
        var k = ks[x];
        if (k < 0 || k >= n) continue;
        var words = lowered[k].match(/[a-z]+/g) || [];
        for (var i = 0; i < words.length; i++) {
          var phase = this.phaseOf[words[i]];
          if (phase !== undefined) return phase;
        }
      }
    }
    return null;
  };

  Matcher.prototype.rank = function (best, lowered) {
    var self = this, ids, line;
    // Linked siblings of the log's phase join the entries matched at a line (rank in matcher.py).
    var byLine = Object.create(null), lines = [], phases = Object.create(null);
    Object.keys(best).sort().forEach(function (id) {
      var at = best[id][1];
      if (!(at in byLine)) { byLine[at] = []; lines.push(at); }
      byLine[at].push(id);
    });
    lines.sort(function (a, b) { return a - b; });
    lines.forEach(function (at) {
      var here = byLine[at];
      if (!here.some(function (e) { return self.links[e] !== undefined; })) return;
      var phase = phases[at] = self.phaseAt(lowered, at);
      if (phase === null || here.some(function (e) { return (self.entryPhases[e] || []).indexOf(phase) >= 0; })) return;
      here.forEach(function (e) {
        (self.links[e] || []).forEach(function (sibling) {
          if (best[sibling] === undefined && (self.entryPhases[sibling] || []).indexOf(phase) >= 0) best[sibling] = best[e];
        });
      });
    });
    ids = Object.keys(best);
    function group(id) { return (best[id][0] >= self.strong ? "0 " : "1 ") + best[id][1]; }
    var sizes = Object.create(null), top = Object.create(null), context = Object.create(null);
    ids.forEach(function (id) {
      var g = group(id);
      sizes[g] = (sizes[g] || 0) + 1;
      top[g] = Math.max(top[g] || 0.0, best[id][0]);
    });
    ids.forEach(function (id) {
      line = best[id][1];
      context[id] = 0;
      if (sizes[group(id)] > 1) {
        if (!(line in phases)) phases[line] = self.phaseAt(lowered, line);
        if ((self.entryPhases[id] || []).indexOf(phases[line]) >= 0) context[id] = 1;
      }
    });
    var strongCauses = ids.filter(function (e) {
      return best[e][0] >= self.strong && self.symptoms[e] === undefined;
    }).map(function (e) { return best[e]; });
    // A cause matched on the symptom's own line but less well is not that line's error.
    function outranks(cause, symptom) { return cause[1] !== symptom[1] || cause[0] >= symptom[0]; }
    function key(id) {
      var score = best[id][0], at = best[id][1];
      var symptom = self.symptoms[id] !== undefined &&
        strongCauses.some(function (c) { return outranks(c, best[id]); }) ? 1 : 0;
      if (score >= self.strong) return [0, symptom, at, 0, -context[id], -score, -best[id][2], id];
      return [1, symptom, -top[group(id)], at, -context[id], -score, -best[id][2], id];
    }
    var order = ids.slice().sort(function (a, b) { return compareKeys(key(a), key(b)); });
    order.filter(function (id) { return self.symptoms[id] !== undefined; }).forEach(function (id) {
      var here = order.indexOf(id), line = best[id][1], last = -1;
      order.forEach(function (e, k) {
        if (k > here && self.symptoms[id].indexOf(e) >= 0 && best[e][1] <= line && outranks(best[e], best[id])) last = k;
      });
      if (last >= 0) { order.splice(here, 1); order.splice(last, 0, id); }
    });
    return order;
  };

  Matcher.prototype.match = function (log, top) {
    var self = this;
    var ansi = this.rules[0][0];
    var rawLines = log.split(/\r\n|\r|\n/);
    var lowered = log.replace(ansi, "").toLowerCase().replace(/\\[nrt]/g, " ").split(/\r\n|\r|\n/);
    var cleaned = {};
    function clean(i) {
      if (!(i in cleaned)) cleaned[i] = self.cleanLine(rawLines[i]).trim(); // stripped once (as in Python)
      return cleaned[i];
    }
    var cand = this.candidates(lowered), anchors = cand[1];
    var pos = Object.create(null), stream = [], lineOf = [], seg = [], segment = 0, previous = -1;
    cand[0].forEach(function (keep, i) {
      if (!keep) return;
      if (i !== previous + 1) segment++;
      previous = i;
      self.tokens(clean(i)).forEach(function (tok) {
        if (self.allTokens[tok]) (pos[tok] = pos[tok] || []).push(stream.length);
        stream.push(tok);
        lineOf.push(i);
        seg.push(segment);
      });
    });
    var best = Object.create(null);
    var loose = Object.create(null);  // matched by generic wordings
    // The third item, the winning alignment's weight, decides a tie (offer in matcher.py).
    function offer(id, score, line, into, aligned) {
      var cur = into[id];
      if (!cur || compareKeys([-score, line, -aligned], [-cur[0], cur[1], -cur[2]]) < 0) into[id] = [score, line, aligned];
    }
    this.templates.forEach(function (t, x) {
      var least = t.tokens.length < self.shortTokens ? self.shortMinScore : self.minScore;
      var occurs = t.tokens.map(function (w) { return pos[w] || null; });
      // No alignment weighs more than the tokens the stream holds: a template that cannot reach
      // its threshold or its entry's score so far is not aligned (as in Python).
      var ceiling = total(t.ws.filter(function (w, k) { return occurs[k] !== null; }));
      var into = t.generic ? loose : best, held = into[t.id];
      if (ceiling < least * t.total || (held && ceiling / t.total < held[0])) return;
      var found = self.alignTemplate(t, anchors[x], occurs, ceiling, seg, stream, lineOf);
      if (found !== null && found[0] >= least * t.total) {
        offer(t.id, found[0] / t.total, lineOf[found[1]], into, found[0]);
      }
    });
    this.patterns.forEach(function (p) {
      // An entry that already scored 1.0 at a line keeps it against any later line (as in Python).
      var into = p.generic ? loose : best, held = into[p.id];
      var end = held && held[0] >= 1.0 ? held[1] : rawLines.length;
      for (var i = 0; i < end; i++) {
        if (p.needles !== null && !containsAny(lowered[i], p.needles)) continue;
        if (p.re.test(clean(i)) || p.re.test(rawLines[i].replace(ansi, "").trim())) { offer(p.id, 1.0, i, into, 0.0); break; }
      }
    });
    function strip(i) { return rawLines[i].replace(ansi, "").trim(); }
    var out = this.rank(best, lowered).slice(0, top).map(function (id) {
      return { id: id, score: round3(best[id][0]), line: best[id][1] + 1, matched: strip(best[id][1]), possible: false, generic: false };
    });
    // A generic line says which program failed, not why: possible matches, first in the log first;
    // at one line a generic wording (the line's message) before a generic pattern (its wrapper).
    Object.keys(loose).sort(function (a, b) {
      return compareKeys([loose[a][1], loose[a][2] === 0 ? 1 : 0, -loose[a][0], a],
                         [loose[b][1], loose[b][2] === 0 ? 1 : 0, -loose[b][0], b]);
    }).forEach(function (id) {
      if (out.length < top && !best[id]) {
        out.push({ id: id, score: round3(self.genericMax * loose[id][0]), line: loose[id][1] + 1,
                   matched: strip(loose[id][1]), possible: true, generic: true });
      }
    });
    if (out.length < top) {
      var shown = Object.create(null);
      out.forEach(function (r) { shown[r.id] = 1; });
      var more = this.possible(lowered, clean, !out.length);
      for (var i = 0; i < more.length && out.length < top; i++) {
        if (shown[more[i][0]]) continue;
        out.push({ id: more[i][0], score: more[i][1], line: more[i][2] + 1, matched: strip(more[i][2]), possible: true, generic: false });
      }
    }
    return out;
  };

  window.ErrkbMatcher = Matcher;  // for tools and for the test that runs the real corpus

  function el(tag, text, attrs) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  // The inputs a shared link carries: the log itself when short, else the lines that matched.
  var SHORT_LOG = 1500;

  function setup(root) {
    var base = root.getAttribute("data-api");
    var repo = root.getAttribute("data-repo");
    var site = root.getAttribute("data-site");
    var input = root.querySelector("textarea");
    var out = root.querySelector(".errkb-results");
    var shareable = root.hasAttribute("data-share");
    var loading = null;

    // The data (matcher.json and index.json) loads on first use where the box is not the
    // page's purpose (the home page), and at once on the paste page.
    function load() {
      if (loading) return loading;
      loading = Promise.all([fetch(base + "matcher.json").then(function (r) { return r.json(); }),
                             fetch(base + "index.json").then(function (r) { return r.json(); })])
        .then(function (loaded) {
          var byId = {};
          loaded[1].entries.forEach(function (e) { byId[e.id] = e; });
          window.errkbMatcher = new Matcher(loaded[0]);
          var skipped = window.errkbMatcher.skipped;
          if (skipped.length) {
            root.appendChild(el("p", "Note: " + skipped.length + " pattern(s) could not be compiled " +
              "by this browser and are skipped (" + skipped.map(function (s) { return s.id; }).join(", ") +
              "); those entries can still match by their messages.", { "class": "errkb-skipped" }));
          }
          root.setAttribute("data-ready", "true");
          return { matcher: window.errkbMatcher, byId: byId };
        });
      return loading;
    }

    function show(data) {
      var matcher = data.matcher, byId = data.byId;
      var results = matcher.match(input.value, 5);
      out.replaceChildren();
      if (results.length) {
        var list = el("ol", null, { "class": "errkb-ranking" });
        results.forEach(function (r) {
          var e = byId[r.id];
          var item = el("li", null, { "data-id": r.id, "data-score": String(r.score), "data-line": String(r.line),
                                      "data-possible": String(r.possible), "data-generic": String(r.generic) });
          if (r.possible) item.className = "errkb-possible";
          item.appendChild(el("a", r.id + ": " + e.title, { href: site + e.path }));
          var how = r.generic ? "possible match (a line printed for other errors too), score "
            : r.possible ? "possible match (its words, not its message), score " : "score ";
          item.appendChild(el("div", how + r.score.toFixed(2) + ", line " + r.line + ": " + r.matched));
          list.appendChild(item);
        });
        out.appendChild(list);
      }
      if (!results.length || results[0].possible) {
        // No stored message matched: the possible matches (if any) may help, and the
        // pre-filled issue stays on offer.
        var lines = input.value.split(/\r\n|\r|\n/).map(function (l) { return matcher.cleanLine(l).trim(); })
          .filter(function (l) { return /error|exception|failed|killed|out of memory/i.test(l); }).slice(0, 15);
        var body = "Log lines (normalised by errkb):\n\n```\n" + lines.join("\n") + "\n```\n\nEngine and version:\n\nGPU:\n";
        var url = repo + "/issues/new?" + new URLSearchParams({ title: "New error: " + (lines[0] || "").slice(0, 80), labels: "new-error", body: body });
        var text = !results.length ? "No entry matches this log. "
          : results[0].generic ? "Only a line printed for other errors too matched: the real error is usually just above or below it. "
          : "No entry's message matches this log; the pages above share its words. ";
        var p = el("p", text, { "class": "errkb-nomatch" });
        p.appendChild(el("a", "Report it as a new error", { href: url }));
        out.appendChild(p);
      }
      if (shareable && results.length) share(results, byId);
    }

    // Put the answer in the URL, and offer it as a link and as Markdown for an issue tracker.
    function share(results, byId) {
      var text = input.value.trim();
      var params = text.length <= SHORT_LOG ? { log: text }
        : { lines: results.map(function (r) { return r.matched; }).filter(function (l, i, all) { return all.indexOf(l) === i; }).join("\n") };
      history.replaceState(null, "", location.pathname + "?" + new URLSearchParams(params).toString());
      var top = byId[results[0].id];
      out.appendChild(el("p", "Link to this answer" + (params.lines !== undefined ? " (the matched lines only; the log was long):" : ":")));
      out.appendChild(codeBlock(location.href, "errkb-share-url"));
      out.appendChild(codeBlock("[errkb " + top.id + ": " + top.title + "](" + location.href + ")", "errkb-share-markdown"));
    }

    root.querySelector("button").addEventListener("click", function () { load().then(show); });
    if (root.hasAttribute("data-lazy")) {
      input.addEventListener("focus", function () { load(); }, { once: true });
    } else {
      load();
    }
    var params = new URLSearchParams(location.search);
    var given = params.get("log") !== null ? params.get("log") : params.get("lines");
    if (given !== null) {
      input.value = given;
      load().then(show);
    }
  }

  function codeBlock(text, cls) {
    var pre = el("pre", null, { "class": cls });
    pre.appendChild(el("code", text));
    return pre;
  }

  function init() {
    var root = document.getElementById("errkb-match");
    if (root && !root.hasAttribute("data-setup")) {
      root.setAttribute("data-setup", "");
      setup(root);
    }
  }
  if (window.document$) window.document$.subscribe(init); else document.addEventListener("DOMContentLoaded", init);
})();
