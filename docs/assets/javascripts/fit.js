// "Will it run?": looks answers up in api/v1/fit/, which the build computes with the
// calculators package. No formula, engine command or URL pattern lives here: they come as
// data (errkb/site/fitdata.py); tests/test_browser_fit.py holds the page equal to `errkb calc`.
(function () {
  "use strict";

  function el(tag, text, attrs) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }

  function fill(select, items) {
    items.forEach(function (it) { select.appendChild(el("option", it[1], { value: it[0] })); });
  }

  // A command as Material styles code blocks: <pre><code>.
  function codeBlock(text, cls) {
    var pre = el("pre", null, { "class": cls });
    pre.appendChild(el("code", text));
    return pre;
  }

  // Commands come as templates from errkb/site/fitdata.py; only the values are ours.
  function fillIn(template, values) {
    return Object.keys(values).reduce(function (text, name) {
      return text.split("{" + name + "}").join(String(values[name]));
    }, template);
  }

  function tokens(n) { return n ? n.toLocaleString("en-US") : "does not fit"; }

  function setup(root) {
    var api = root.getAttribute("data-api"), site = root.getAttribute("data-site");
    var q = function (name) { return root.querySelector("[name=" + name + "]"); };
    var answer = root.querySelector(".errkb-fit-answer");
    var cache = {}, index = null;

    function load(model) {
      if (!cache[model]) cache[model] = fetch(api + model + ".json").then(function (r) { return r.json(); });
      return cache[model];
    }

    function show() {
      var gpu = q("gpu").value, model = q("model").value, comboKey = q("combo").value;
      var ci = Number(q("context").value), seqs = Math.max(1, Number(q("seqs").value) || 1);
      var context = index.contexts[ci];
      var combo = index.combos.filter(function (c) { return c.key === comboKey; })[0];
      var info = index.models.filter(function (m) { return m.id === model; })[0];
      var state = new URLSearchParams({ gpu: gpu, model: model, setting: comboKey, context: String(context), seqs: String(seqs) });
      history.replaceState(null, "", location.pathname + "?" + state.toString() + location.hash);
      load(model).then(function (data) {
        var cell = data.cells.filter(function (c) { return c.gpu === gpu && c.combo === comboKey; })[0];
        answer.textContent = "";
        if (!cell || cell.error) {
          answer.appendChild(el("p", "Not possible: " + (cell ? cell.error : "no data"), { "data-fits": "error" }));
          return;
        }
        var conc = cell.concurrency[ci], fitsOne = cell.fits[ci];
        var fits = conc === null || conc === undefined ? null : (seqs === 1 ? fitsOne : conc >= seqs);
        var verdict = fits === null ? "Beyond the model's context length." :
          fits ? "Fits." : "Does not fit.";
        answer.appendChild(el("p", verdict, { "class": "errkb-verdict", "data-fits": String(fits) }));
        var list = el("ul");
        list.appendChild(el("li", "Longest context per sequence: " + tokens(cell.max_context),
          { "data-max-context": String(cell.max_context) }));
        list.appendChild(el("li", "Sequences of " + context.toLocaleString("en-US") + " tokens at once: " +
          (conc === null || conc === undefined ? "n/a" : String(Math.round(conc * 100) / 100)),
          { "data-concurrency": String(conc) }));
        list.appendChild(el("li", "Weights per GPU: " + (cell.weights_bytes / 1073741824).toFixed(2) + " GiB; KV cache " +
          cell.kv_bytes_per_token.toLocaleString("en-US") + " bytes per token"));
        answer.appendChild(list);
        var calc = fillIn(combo.calc_command, { model: model, gpu: gpu, context: context, seqs: seqs });
        answer.appendChild(el("p", "Same numbers in a terminal:"));
        answer.appendChild(codeBlock(calc, "errkb-calc-command"));
        if (cell.max_context) {
          answer.appendChild(el("p", "Engine command at the longest context (" + cell.engine_version + "):"));
          var launch = fillIn(combo.command, { model: info.hf_repo || info.id, context: cell.max_context });
          answer.appendChild(codeBlock(launch, "errkb-engine-command"));
        }
        if (fits === false || !cell.max_context) {
          var p = el("p", "The errors you would see: ");
          (index.no_fit_entries[combo.engine] || []).forEach(function (entry, i) {
            if (i) p.appendChild(document.createTextNode(", "));
            p.appendChild(el("a", entry.id, { href: site + entry.url }));
          });
          answer.appendChild(p);
        }
        share(answer, info, gpu, combo, context, seqs);
      });
    }

    // A link to this answer, and the same as Markdown for an issue tracker.
    function share(answer, info, gpu, combo, context, seqs) {
      var gpuName = index.gpus.filter(function (g) { return g.id === gpu; })[0].name;
      var title = "Will " + info.name + " run on " + gpuName + "? (" + combo.label + ", " +
        context.toLocaleString("en-US") + " tokens" + (seqs > 1 ? " x " + seqs : "") + ")";
      answer.appendChild(el("p", "Link to this answer:"));
      answer.appendChild(codeBlock(location.href, "errkb-share-url"));
      answer.appendChild(codeBlock("[" + title + "](" + location.href + ")", "errkb-share-markdown"));
    }

    // The inputs a shared link carries; unknown values are ignored, not half-applied.
    function restore() {
      var params = new URLSearchParams(location.search);
      function set(name, value) {
        var select = q(name);
        if (value !== null && Array.prototype.some.call(select.options, function (o) { return o.value === value; })) select.value = value;
      }
      set("gpu", params.get("gpu"));
      set("model", params.get("model"));
      set("combo", params.get("setting"));
      var context = index.contexts.indexOf(Number(params.get("context")));
      if (context >= 0) set("context", String(context));
      var seqs = Number(params.get("seqs"));
      if (seqs >= 1) q("seqs").value = String(Math.floor(seqs));
    }

    function findConfig() {
      var out = root.querySelector(".errkb-config-result");
      var cfg;
      try { cfg = JSON.parse(q("config").value); } catch (e) { out.textContent = "Not valid JSON."; return; }
      if (cfg.text_config) cfg = Object.assign({}, cfg, cfg.text_config);
      var hit = index.models.filter(function (m) {
        return Object.keys(m.signature).every(function (k) { return cfg[k] === m.signature[k]; });
      })[0];
      if (!hit) { out.textContent = "No catalog model has this architecture: run errkb calc --config config.json."; return; }
      q("model").value = hit.id;
      out.textContent = "Same architecture as " + hit.name + ".";
      show();
    }

    fetch(api + "index.json").then(function (r) { return r.json(); }).then(function (data) {
      index = data;
      fill(q("gpu"), data.gpus.map(function (g) { return [g.id, g.name + " (" + g.memory_mib.toLocaleString("en-US") + " MiB)"]; }));
      fill(q("model"), data.models.map(function (m) { return [m.id, m.name]; }));
      fill(q("combo"), data.combos.map(function (c) { return [c.key, c.label]; }));
      fill(q("context"), data.contexts.map(function (c, i) { return [String(i), c.toLocaleString("en-US") + " tokens"]; }));
      ["gpu", "model", "combo", "context", "seqs"].forEach(function (n) { q(n).addEventListener("change", show); });
      q("seqs").addEventListener("input", show);
      root.querySelector("[name=find]").addEventListener("click", findConfig);
      restore();
      root.setAttribute("data-ready", "true");
      show();
    });
  }

  function init() {
    var root = document.getElementById("errkb-fit");
    if (root && !root.getAttribute("data-ready")) setup(root);
    var quick = document.getElementById("errkb-fit-quick");
    if (quick && !quick.getAttribute("data-ready")) setupQuick(quick);
  }

  // The home page's short form: the same choices, submitted to "Will it run?" as its URL.
  function setupQuick(form) {
    var q = function (name) { return form.querySelector("[name=" + name + "]"); };
    fetch(form.getAttribute("data-api") + "index.json").then(function (r) { return r.json(); }).then(function (data) {
      fill(q("model"), data.models.map(function (m) { return [m.id, m.name]; }));
      fill(q("gpu"), data.gpus.map(function (g) { return [g.id, g.name.replace(/^NVIDIA (GeForce )?/, "")]; }));
      fill(q("context"), data.contexts.map(function (c) { return [String(c), c.toLocaleString("en-US") + " tokens"]; }));
      form.setAttribute("data-ready", "true");
    });
  }
  if (window.document$) window.document$.subscribe(init); else document.addEventListener("DOMContentLoaded", init);
})();
