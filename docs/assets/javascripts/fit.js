// "Will it run?": looks answers up in api/v1/fit/, which the build computes with the
// calculators package. No formula, engine command or URL pattern lives here: they come as
// data (errkb/site/fitdata.py); tests/test_browser_fit.py holds the page equal to `errkb calc`.
// A pasted config.json the catalog lacks runs `errkb calc` itself, in Pyodide
// (errkb/site/browsercalc.py, calculators/browser.py), loaded only when asked for.
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
    var cache = {}, index = null, pasted = null, python = null;

    function load(model) {
      if (!cache[model]) cache[model] = fetch(api + model + ".json").then(function (r) { return r.json(); });
      return cache[model];
    }

    function show() {
      if (pasted) { computeInPage(); return; }
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
        var gpuInfo = index.gpus.filter(function (g) { return g.id === gpu; })[0];
        var calc = fillIn(combo.calc_command, { model: model, gpu: gpuInfo.calc_gpu, context: context, seqs: seqs });
        answer.appendChild(el("p", "Same numbers in a terminal:"));
        answer.appendChild(codeBlock(calc, "errkb-calc-command"));
        if (cell.max_context) {
          answer.appendChild(el("p", "Engine command at the longest context (" + cell.engine_version + "):"));
          var launch = fillIn(combo.command, { model: info.hf_repo || info.id, context: cell.max_context }) + gpuInfo.launch_suffix;
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

    function parsedConfig(out) {
      try { return JSON.parse(q("config").value); } catch (e) { out.textContent = "Not valid JSON."; return null; }
    }

    function findConfig() {
      var out = root.querySelector(".errkb-config-result");
      var cfg = parsedConfig(out);
      if (!cfg) return;
      if (cfg.text_config) cfg = Object.assign({}, cfg, cfg.text_config);
      var hit = index.models.filter(function (m) {
        return Object.keys(m.signature).every(function (k) { return cfg[k] === m.signature[k]; });
      })[0];
      if (!hit) { out.textContent = "No catalog model has this architecture: compute it in this page, or run errkb calc --config config.json."; return; }
      pasted = null;
      q("model").value = hit.id;
      out.textContent = "Same architecture as " + hit.name + ".";
      show();
    }

    // Pyodide and the calculators package, fetched once, on the first pasted config.
    function loadPython(status) {
      if (python) return python;
      python = fetch(api + "runtime.json").then(function (r) { return r.json(); }).then(function (rt) {
        if (!rt.pyodide) throw new Error("this build of the site has no in-browser calculator");
        var base = new URL(site + rt.pyodide, location.href).href;
        status("Loading Python (Pyodide " + rt.pyodide_version + ", about 12 MB, once)...");
        return import(base + "pyodide.mjs").then(function (mod) {
          return mod.loadPyodide({ indexURL: base });
        }).then(function (py) {
          return fetch(new URL(site + rt.calculators, location.href).href).then(function (r) {
            if (!r.ok) throw new Error("calculators package: HTTP " + r.status);
            return r.arrayBuffer();
          }).then(function (buf) {
            py.unpackArchive(buf, "zip", { extractDir: "/home/pyodide/errkb" });
            py.runPython("import sys; sys.path.insert(0, '/home/pyodide/errkb')\nfrom calculators.browser import calc_json");
            return py;
          });
        });
      });
      python.catch(function () { python = null; });
      return python;
    }

    function computeClicked() {
      var out = root.querySelector(".errkb-config-result");
      if (!parsedConfig(out)) return;
      var idx = q("index").value.trim();
      pasted = { config: q("config").value, index: idx || null };
      out.textContent = "";
      show();
    }

    function computeInPage() {
      var gpu = q("gpu").value, comboKey = q("combo").value;
      var context = index.contexts[Number(q("context").value)], seqs = Math.max(1, Number(q("seqs").value) || 1);
      var combo = index.combos.filter(function (c) { return c.key === comboKey; })[0];
      var gpuInfo = index.gpus.filter(function (g) { return g.id === gpu; })[0];
      var spec = index.config_calc, values = { context: context, seqs: seqs };
      var args = [];
      spec.args.forEach(function (a) {
        if (a === "{combo}") args = args.concat(combo.calc_args);
        else if (a === "{gpu}") args = args.concat(gpuInfo.calc_gpu.split(" "));
        else args.push(fillIn(a, values));
      });
      var command = [spec.command].concat(args, pasted.index ? spec.index_args : []).join(" ");
      var job = pasted;
      answer.textContent = "";
      answer.removeAttribute("data-result");
      var status = el("p", "Computing...", { "class": "errkb-python-status" });
      answer.appendChild(status);
      loadPython(function (text) { status.textContent = text; }).then(function (py) {
        if (job !== pasted) return;
        var fn = py.globals.get("calc_json");
        // JS null reaches Python as jsnull; undefined is None.
        var reply = JSON.parse(fn(job.config, py.toPy(args), job.index || undefined));
        fn.destroy();
        answer.textContent = "";
        if (reply.error) {
          answer.appendChild(el("p", "errkb calc: " + reply.error, { "data-fits": "error" }));
        } else {
          renderComputed(reply.result, command, combo);
        }
      }).catch(function (err) {
        answer.textContent = "";
        answer.appendChild(el("p", "Could not run the calculator here (" + err.message + "). Run: " + command, { "data-fits": "error" }));
      });
    }

    function renderComputed(r, command, combo) {
      answer.setAttribute("data-result", JSON.stringify(r));
      // The model list above is not what this answers; pick a model there to leave this mode.
      answer.appendChild(el("p", "For the pasted config.json (the model list above is not used):", { "class": "errkb-pasted-note" }));
      var verdict = r.fits === null ? "Unknown." : r.fits ? "Fits." : "Does not fit.";
      answer.appendChild(el("p", verdict, { "class": "errkb-verdict", "data-fits": String(r.fits) }));
      var list = el("ul");
      list.appendChild(el("li", "Longest context per sequence: " + tokens(r.max_context), { "data-max-context": String(r.max_context) }));
      list.appendChild(el("li", "Sequences of " + r.context.toLocaleString("en-US") + " tokens at once: " +
        (r.max_concurrency === null ? "n/a" : String(Math.round(r.max_concurrency * 100) / 100))));
      list.appendChild(el("li", "Weights per GPU: " + (r.weights_bytes / 1073741824).toFixed(2) + " GiB; KV cache " +
        r.kv_bytes_per_token.toLocaleString("en-US") + " bytes per token"));
      answer.appendChild(list);
      if (r.notes.length) {
        var notes = el("ul", null, { "class": "errkb-calc-notes" });
        r.notes.forEach(function (n) { notes.appendChild(el("li", n)); });
        answer.appendChild(el("p", "Assumptions and notes:"));
        answer.appendChild(notes);
      }
      answer.appendChild(el("p", "Computed in this page by " + r.engine_version + "; the same in a terminal:"));
      answer.appendChild(codeBlock(command, "errkb-calc-command"));
      if (r.fits === false || !r.max_context) {
        var p = el("p", "The errors you would see: ");
        (index.no_fit_entries[combo.engine] || []).forEach(function (entry, i) {
          if (i) p.appendChild(document.createTextNode(", "));
          p.appendChild(el("a", entry.id, { href: site + entry.url }));
        });
        answer.appendChild(p);
      }
    }

    // The Hub serves a repository's files with CORS headers; nothing here goes anywhere else.
    function fetchRepo() {
      var out = root.querySelector(".errkb-config-result");
      var repo = q("repo").value.trim();
      if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(repo)) { out.textContent = "A repository id looks like Qwen/Qwen3-8B."; return; }
      var base = "https://huggingface.co/" + repo + "/resolve/main/";
      out.textContent = "Fetching " + repo + "/config.json...";
      fetch(base + "config.json").then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status + (r.status === 401 ? " (a gated model: paste its config.json)" : ""));
        return r.text();
      }).then(function (text) {
        q("config").value = text;
        return fetch(base + "model.safetensors.index.json").then(function (r) { return r.ok ? r.text() : ""; }, function () { return ""; });
      }).then(function (idx) {
        q("index").value = idx || "";
        out.textContent = "Fetched " + repo + (idx ? " (config.json and its safetensors index)." : " (config.json).");
        findConfig();
      }).catch(function (err) { out.textContent = "Could not fetch " + repo + ": " + err.message; });
    }

    fetch(api + "index.json").then(function (r) { return r.json(); }).then(function (data) {
      index = data;
      fill(q("gpu"), data.gpus.map(function (g) { return [g.id, g.name + " (" + g.memory_mib.toLocaleString("en-US") + " MiB)"]; }));
      fill(q("model"), data.models.map(function (m) { return [m.id, m.name]; }));
      fill(q("combo"), data.combos.map(function (c) { return [c.key, c.label]; }));
      fill(q("context"), data.contexts.map(function (c, i) { return [String(i), c.toLocaleString("en-US") + " tokens"]; }));
      ["gpu", "combo", "context", "seqs"].forEach(function (n) { q(n).addEventListener("change", show); });
      q("model").addEventListener("change", function () { pasted = null; show(); });
      q("seqs").addEventListener("input", show);
      root.querySelector("[name=find]").addEventListener("click", findConfig);
      root.querySelector("[name=compute]").addEventListener("click", computeClicked);
      root.querySelector("[name=fetch]").addEventListener("click", fetchRepo);
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
