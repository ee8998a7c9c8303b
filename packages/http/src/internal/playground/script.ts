/**
 * The playground's script, served as `/playground/playground.js`. Plain browser JavaScript (no
 * build step): it calls this server's own endpoints and draws the answers. Every string from a
 * response or from the user goes into the page through `textContent` or a property, never as HTML,
 * so a comment such as `<img src=x onerror=...>` is shown verbatim and runs nothing.
 *
 * Written inside `String.raw` so that backslashes stay as typed; it must contain no backtick and
 * no dollar-brace sequence.
 */
export const SCRIPT = String.raw`(function () {
  "use strict";

  var STORAGE_KEY = "decorum.playground.credentials";
  var ATTRIBUTES = ["TOXICITY", "SEVERE_TOXICITY", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "THREAT", "SEXUALLY_EXPLICIT", "FLIRTATION"];
  var DEFAULT_ATTRIBUTES = ["TOXICITY", "SEVERE_TOXICITY", "IDENTITY_ATTACK", "INSULT", "PROFANITY", "THREAT"];
  var THRESHOLDS = [0.5, 0.7, 0.9];
  var KIND_LABEL = { objectionable: "Objectionable", negative: "Negative tone", fallacy: "Fallacy" };

  var configuredModel = null;
  var lastComment = null;
  var tipCounter = 0;

  function $(id) { return document.getElementById(id); }

  /** Creates an element; text goes in as textContent, attributes with setAttribute. Never HTML. */
  function el(tag, options, children) {
    var node = document.createElement(tag);
    options = options || {};
    if (options.className) node.className = options.className;
    if (options.text !== undefined && options.text !== null) node.textContent = String(options.text);
    if (options.attrs) {
      Object.keys(options.attrs).forEach(function (name) { node.setAttribute(name, String(options.attrs[name])); });
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function setStatus(id, message, kind) {
    var node = $(id);
    node.textContent = message || "";
    node.className = "status" + (kind ? " " + kind : "");
  }

  function fmt(value) { return typeof value === "number" ? value.toFixed(2) : String(value); }
  function pct(value) { return Math.round(value * 100) + "%"; }

  // ------------------------------------------------------------------ credentials

  function loadCredentials() {
    try {
      var raw = window.sessionStorage.getItem(STORAGE_KEY);
      if (!raw) return null;
      var parsed = JSON.parse(raw);
      return parsed && typeof parsed.email === "string" && typeof parsed.key === "string" ? parsed : null;
    } catch (e) {
      return null;
    }
  }

  function credentials() {
    return { email: $("email").value.trim(), key: $("api-key").value.trim() };
  }

  /** Calls this server. Resolves with status, headers, the body text and its JSON (null if not JSON). */
  function call(method, path, body, options) {
    var cred = credentials();
    var headers = { "X-User-Email": cred.email, "X-API-Key": cred.key };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (options && options.anonymous) headers = {};
    return fetch(path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store"
    }).then(function (response) {
      return response.text().then(function (text) {
        var json = null;
        try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
        if (response.status === 401) onUnauthorized();
        return { status: response.status, headers: response.headers, text: text, json: json };
      });
    });
  }

  function errorMessage(result) {
    var body = result.json;
    if (body && typeof body.message === "string") return body.message + " (" + result.status + ")";
    if (body && body.error && typeof body.error.message === "string") return body.error.message + " (" + result.status + ")";
    return "The server answered " + result.status + ".";
  }

  function onUnauthorized() {
    setStatus("login-status", "The server did not accept this email and API key (401). Check both: keys look like dk_..., and belong to the email they were created for.", "error");
  }

  function networkFailure(statusId) {
    return function (error) {
      setStatus(statusId, "Could not reach the server: " + (error && error.message ? error.message : String(error)), "error");
    };
  }

  function signIn(event) {
    if (event) event.preventDefault();
    var cred = credentials();
    if (!cred.email || !cred.key) {
      setStatus("login-status", "Enter both the email and the API key.", "error");
      return;
    }
    setStatus("login-status", "Checking…", "busy");
    call("GET", "/v0.2/usercheck").then(function (result) {
      if (result.status === 200) {
        window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(cred));
        setStatus("login-status", "Signed in as " + cred.email + ". Credentials kept for this tab only.", "ok");
        loadContexts();
      } else if (result.status !== 401) {
        setStatus("login-status", errorMessage(result), "error");
      }
    }, networkFailure("login-status"));
  }

  function signOut() {
    window.sessionStorage.removeItem(STORAGE_KEY);
    $("email").value = "";
    $("api-key").value = "";
    clear($("context-select"));
    $("context-select").appendChild(el("option", { text: "No context", attrs: { value: "" } }));
    $("context-about").textContent = "";
    setStatus("login-status", "Credentials forgotten.", "");
  }

  // ------------------------------------------------------------------ article contexts

  function contextLabel(c) {
    var name = c.title || c.source_url || "Untitled";
    var when = c.created_at ? c.created_at.slice(0, 16).replace("T", " ") : "";
    return name + " · " + c.text_length + " chars · " + when;
  }

  function loadContexts(selectId) {
    var select = $("context-select");
    var keep = selectId || select.value;
    return call("GET", "/v0.2/article-contexts").then(function (result) {
      if (result.status !== 200 || !result.json) {
        if (result.status !== 401) setStatus("context-status", errorMessage(result), "error");
        return;
      }
      var list = result.json.article_contexts.slice().reverse();
      clear(select);
      select.appendChild(el("option", { text: list.length ? "No context" : "No context (create one below)", attrs: { value: "" } }));
      list.forEach(function (c) {
        var option = el("option", { text: contextLabel(c), attrs: { value: c.article_id } });
        select.appendChild(option);
      });
      if (keep && list.some(function (c) { return c.article_id === keep; })) select.value = keep;
      else if (list.length) select.value = list[0].article_id;
      if (!list.length) $("context-create-box").open = true;
      describeContext();
    }, networkFailure("context-status"));
  }

  function describeContext() {
    var id = $("context-select").value;
    var about = $("context-about");
    about.textContent = "";
    if (!id) return;
    call("GET", "/v0.2/article-contexts/" + encodeURIComponent(id)).then(function (result) {
      if ($("context-select").value !== id || result.status !== 200 || !result.json) return;
      var c = result.json;
      var terms = (c.keywords || []).slice(0, 8).map(function (k) { return k.term; }).join(", ");
      about.textContent = (c.summary ? "Summary: " + c.summary : "") + (terms ? (c.summary ? " · " : "") + "Key terms: " + terms : "");
    });
  }

  function createContext(event) {
    event.preventDefault();
    var fromUrl = $("context-source-url").checked;
    var body = {};
    if (fromUrl) body.url = $("context-url").value.trim();
    else body.text = $("context-text").value;
    var title = $("context-title-input").value.trim();
    var topic = $("context-topic").value.trim();
    if (title) body.title = title;
    if (topic) body.topic_description = topic;
    if ((fromUrl && !body.url) || (!fromUrl && !body.text.trim())) {
      setStatus("context-status", fromUrl ? "Enter the article's URL." : "Paste the article's text.", "error");
      return;
    }
    setStatus("context-status", fromUrl ? "Fetching and reading the article…" : "Reading the article…", "busy");
    $("context-create").disabled = true;
    call("POST", "/v0.2/inittopic", body).then(function (result) {
      $("context-create").disabled = false;
      if (result.status === 200 && result.json) {
        var id = result.json.article_id;
        setStatus("context-status", "Created context " + id + " and selected it.", "ok");
        $("context-create-box").open = false;
        return loadContexts(id);
      }
      setStatus("context-status", errorMessage(result), "error");
    }, function (error) {
      $("context-create").disabled = false;
      networkFailure("context-status")(error);
    });
  }

  function toggleContextSource() {
    var fromUrl = $("context-source-url").checked;
    $("context-url-field").hidden = !fromUrl;
    $("context-text-field").hidden = fromUrl;
  }

  // ------------------------------------------------------------------ evaluation

  function selectedAttributes() {
    return ATTRIBUTES.filter(function (name) { return $("attr-" + name).checked; });
  }

  function listOf(id) {
    return $(id).value.split(/[\n,]/).map(function (t) { return t.trim(); }).filter(Boolean);
  }

  function bannedTopics() {
    return listOf("banned-topics");
  }

  function evaluate(event) {
    event.preventDefault();
    var comment = $("comment").value;
    var flags = {
      run_comment_score: $("run-comment-score").checked,
      run_spam_check: $("run-spam-check").checked,
      run_relevance_check: $("run-relevance-check").checked,
      run_dogwhistle_check: $("run-dogwhistle-check").checked,
      run_llm_detect: $("run-llm-detect").checked,
      run_perspective: $("run-perspective").checked
    };
    if (!comment.trim()) {
      setStatus("evaluate-status", "Write or paste a comment first.", "error");
      $("comment").focus();
      return;
    }
    if (!Object.keys(flags).some(function (f) { return flags[f]; })) {
      setStatus("evaluate-status", "Tick at least one evaluation.", "error");
      return;
    }
    var attributes = selectedAttributes();
    if (flags.run_perspective && attributes.length === 0) {
      setStatus("evaluate-status", "Tick at least one Perspective attribute, or untick Perspective attributes.", "error");
      return;
    }
    var body = {
      comment: comment,
      run_comment_score: flags.run_comment_score,
      run_spam_check: flags.run_spam_check,
      run_relevance_check: flags.run_relevance_check,
      run_dogwhistle_check: flags.run_dogwhistle_check,
      run_llm_detect: flags.run_llm_detect,
      run_perspective: flags.run_perspective
    };
    var contextId = $("context-select").value;
    if (contextId) body.article_context_id = contextId;
    var replyTo = $("reply-to").value;
    if (replyTo.trim()) body.reply_to_comment = replyTo;
    var topics = bannedTopics();
    if (topics.length) body.banned_topics = topics;
    var sensitive = listOf("sensitive-topics");
    if (sensitive.length) body.sensitive_topics = sensitive;
    var examples = listOf("dogwhistle-examples");
    if (examples.length) body.dogwhistle_examples = examples;
    if (flags.run_perspective) {
      body.requested_attributes = attributes;
      body.span_annotations = true;
    }
    setStatus("evaluate-status", "Evaluating…", "busy");
    $("evaluate-button").disabled = true;
    var started = performance.now();
    call("POST", "/v0.2/megacall", body).then(function (result) {
      $("evaluate-button").disabled = false;
      var elapsed = Math.round(performance.now() - started);
      if (result.status === 200 && result.json) {
        setStatus("evaluate-status", "Evaluated in " + elapsed + " ms.", "ok");
        lastComment = comment;
        render(result, comment, elapsed);
        return;
      }
      setStatus("evaluate-status", errorMessage(result), "error");
      if (result.status !== 401 && result.json) showRaw(result);
    }, function (error) {
      $("evaluate-button").disabled = false;
      networkFailure("evaluate-status")(error);
    });
  }

  // ------------------------------------------------------------------ drawing

  /** Which engine answered, from the response headers and the configured model set (GET /readyz). */
  function engineOf(headers) {
    var fallback = headers.get("x-decorum-fallback");
    var models = (headers.get("x-model-version") || "").split(",").map(function (m) { return m.trim(); }).filter(Boolean);
    var usedLlm = models.some(function (m) { return m.indexOf("openai:") >= 0; });
    if (fallback) return { name: "fallback", detail: "the local model answered because the LLM failed (" + fallback + ")" };
    if (configuredModel && configuredModel.indexOf("+") > 0) {
      return { name: "cascade", detail: usedLlm ? "the LLM was consulted" : "the local model was confident enough" };
    }
    if (usedLlm) return { name: "llm", detail: "an OpenAI-compatible model answered" };
    return { name: "local", detail: "the shipped local models answered" };
  }

  function metaItem(list, term, value, id) {
    list.appendChild(el("dt", { text: term }));
    list.appendChild(el("dd", { text: value, attrs: id ? { id: id } : undefined }));
  }

  function render(result, comment, elapsed) {
    var body = result.json;
    var meta = $("result-meta");
    clear(meta);
    var engine = engineOf(result.headers);
    metaItem(meta, "Model", result.headers.get("x-model-version") || "unknown", "result-model");
    var engineValue = el("dd", { attrs: { id: "result-engine" } }, [
      el("span", { className: "badge engine-" + engine.name, text: engine.name }), " " + engine.detail
    ]);
    meta.appendChild(el("dt", { text: "Engine" }));
    meta.appendChild(engineValue);
    metaItem(meta, "Engine version", result.headers.get("x-engine-version") || "unknown");
    metaItem(meta, "Time", elapsed + " ms");

    var errors = $("result-errors");
    clear(errors);
    if (body.errors) {
      Object.keys(body.errors).forEach(function (section) {
        errors.appendChild(el("p", { className: "notice error", attrs: { role: "alert" }, text: section + " failed: " + body.errors[section].message }));
      });
    }

    renderPerspective(body.perspective);
    renderComment(comment, body.comment_score, body.perspective, body.dogwhistle_check);
    renderScore(body.comment_score);
    renderSpam(body.spam_check);
    renderRelevance(body.relevance_check);
    renderDogwhistle(body.dogwhistle_check);
    renderLlm(body.llm_detection);
    showRaw(result);
    $("results").hidden = false;
    $("results").focus();
  }

  function showRaw(result) {
    var lines = ["HTTP " + result.status];
    ["x-model-version", "x-engine-version", "x-decorum-fallback", "x-decorum-partial"].forEach(function (name) {
      var value = result.headers.get(name);
      if (value !== null) lines.push(name + ": " + value);
    });
    var pretty = result.text;
    try { pretty = JSON.stringify(JSON.parse(result.text), null, 2); } catch (e) { pretty = result.text; }
    $("raw-json").textContent = lines.join("\n") + "\n\n" + pretty;
    $("results").hidden = false;
  }

  function band(value) {
    if (value >= 0.9) return "severe";
    if (value >= 0.7) return "high";
    if (value >= 0.5) return "medium";
    return "low";
  }

  function renderPerspective(perspective) {
    var section = $("perspective-section");
    var bars = $("bars");
    var select = $("correct-attribute");
    clear(bars);
    clear(select);
    setStatus("correct-status", "", "");
    if (!perspective) { section.hidden = true; return; }
    section.hidden = false;
    var scores = perspective.attributeScores || {};
    Object.keys(scores).forEach(function (name) {
      var value = scores[name].summaryScore.value;
      var labelId = "bar-label-" + name;
      var track = el("div", {
        className: "track",
        attrs: { role: "meter", "aria-valuemin": 0, "aria-valuemax": 1, "aria-valuenow": value, "aria-valuetext": fmt(value), "aria-labelledby": labelId }
      });
      var fill = el("div", { className: "fill band-" + band(value) });
      fill.style.width = Math.max(0, Math.min(1, value)) * 100 + "%";
      track.appendChild(fill);
      THRESHOLDS.forEach(function (t) {
        var mark = el("div", { className: "tick", attrs: { "aria-hidden": "true", "data-threshold": t } });
        mark.style.left = t * 100 + "%";
        track.appendChild(mark);
      });
      var row = el("li", { className: "bar", attrs: { "data-attribute": name, "data-score": value } }, [
        el("span", { className: "bar-name", text: name.replace(/_/g, " ").toLowerCase(), attrs: { id: labelId } }),
        track,
        el("span", { className: "bar-value", text: fmt(value) })
      ]);
      bars.appendChild(row);
      select.appendChild(el("option", { text: name, attrs: { value: name } }));
    });
    var scale = el("li", { className: "bar scale", attrs: { "aria-hidden": "true" } }, [el("span", { className: "bar-name" })]);
    var scaleTrack = el("div", { className: "scale-track" });
    THRESHOLDS.forEach(function (t) {
      var label = el("span", { text: String(t) });
      label.style.left = t * 100 + "%";
      scaleTrack.appendChild(label);
    });
    scale.appendChild(scaleTrack);
    scale.appendChild(el("span", { className: "bar-value" }));
    bars.appendChild(scale);
    syncCorrection();
  }

  function syncCorrection() {
    var name = $("correct-attribute").value;
    var row = null;
    Array.prototype.forEach.call(document.querySelectorAll("#bars .bar"), function (bar) {
      if (bar.getAttribute("data-attribute") === name) row = bar;
    });
    $("correct-value").value = row ? Number(row.getAttribute("data-score")).toFixed(2) : "";
  }

  /** Finds each quoted phrase in the comment (the contract guarantees a verbatim substring). */
  function highlightsOf(comment, score, dogwhistle) {
    var found = [];
    function add(kind, quote, title, explanation, rewrite) {
      if (!quote) return;
      var from = 0;
      var at = comment.indexOf(quote, from);
      // The same quote twice in one list marks its next occurrence.
      while (at >= 0 && found.some(function (h) { return h.kind === kind && h.start === at && h.quote === quote; })) {
        from = at + 1;
        at = comment.indexOf(quote, from);
      }
      if (at < 0) return;
      found.push({ kind: kind, quote: quote, start: at, end: at + quote.length, notes: [{ kind: kind, title: title, explanation: explanation, rewrite: rewrite }] });
    }
    if (score) {
      score.objectionable_phrases.forEach(function (p) { add("objectionable", p.quoted_objectionable_phrase, "Objectionable", p.explanation, p.suggested_rewrite); });
      score.negative_tone_phrases.forEach(function (p) { add("negative", p.quoted_negative_tone_phrase, "Negative tone", p.explanation, p.suggested_rewrite); });
      score.logical_fallacies.forEach(function (f) { add("fallacy", f.quoted_logical_fallacy_example, "Fallacy: " + f.fallacy_name, f.explanation_and_suggestions, f.suggested_rewrite); });
    }
    codedTerms(dogwhistle).forEach(function (term) {
      add("coded", term, "Dog whistle (" + dogwhistle.details.categories.join(", ") + ")", dogwhistle.detection.reasoning, "");
    });
    // Overlapping quotes merge into one highlight that carries every explanation.
    found.sort(function (a, b) { return a.start - b.start || b.end - a.end; });
    var merged = [];
    found.forEach(function (h) {
      var last = merged[merged.length - 1];
      if (last && h.start < last.end) {
        last.end = Math.max(last.end, h.end);
        last.notes = last.notes.concat(h.notes);
        if (last.kinds.indexOf(h.kind) < 0) last.kinds.push(h.kind);
      } else {
        merged.push({ start: h.start, end: h.end, notes: h.notes.slice(), kinds: [h.kind] });
      }
    });
    return merged;
  }

  /** Sentence scores of the attribute that shades the comment: TOXICITY when requested, else the first. */
  function shadingOf(perspective) {
    if (!perspective || !perspective.attributeScores) return null;
    var names = Object.keys(perspective.attributeScores);
    var name = names.indexOf("TOXICITY") >= 0 ? "TOXICITY" : names[0];
    if (!name) return null;
    var spans = perspective.attributeScores[name].spanScores || [];
    return { attribute: name, spans: spans.map(function (s) { return { start: s.begin, end: s.end, value: s.score.value }; }) };
  }

  function shaded(text, offset, shading, parent) {
    if (!shading || !shading.spans.length) { parent.appendChild(document.createTextNode(text)); return; }
    var end = offset + text.length;
    var cuts = [offset, end];
    shading.spans.forEach(function (s) {
      if (s.start > offset && s.start < end) cuts.push(s.start);
      if (s.end > offset && s.end < end) cuts.push(s.end);
    });
    cuts = cuts.filter(function (c, i, all) { return all.indexOf(c) === i; }).sort(function (a, b) { return a - b; });
    for (var i = 0; i + 1 < cuts.length; i++) {
      var a = cuts[i], b = cuts[i + 1];
      var piece = text.slice(a - offset, b - offset);
      var span = shading.spans.filter(function (s) { return s.start <= a && b <= s.end; })[0];
      if (!span) { parent.appendChild(document.createTextNode(piece)); continue; }
      var node = el("span", { className: "sentence shade-" + Math.min(4, Math.floor(span.value * 5)), text: piece, attrs: { "data-score": span.value } });
      parent.appendChild(node);
    }
  }

  /** The coded terms of a dog-whistle answer (none when nothing was detected). */
  function codedTerms(dogwhistle) {
    return dogwhistle && dogwhistle.detection.dogwhistles_detected && dogwhistle.details ? dogwhistle.details.dogwhistle_terms : [];
  }

  function renderComment(comment, score, perspective, dogwhistle) {
    var section = $("comment-section");
    var target = $("annotated-comment");
    clear(target);
    var shading = shadingOf(perspective);
    var highlights = highlightsOf(comment, score, dogwhistle);
    var coded = codedTerms(dogwhistle).length > 0;
    if (!score && !shading && !coded) { section.hidden = true; return; }
    section.hidden = false;
    var legend = $("comment-legend");
    clear(legend);
    if (shading) {
      legend.appendChild(el("span", { className: "key sentence shade-3", text: "Sentence shading" }));
      legend.appendChild(document.createTextNode(" darker means a higher " + shading.attribute + " score. "));
    }
    if (score) {
      legend.appendChild(el("span", { className: "key hl hl-objectionable", text: "objectionable" }));
      legend.appendChild(document.createTextNode(" "));
      legend.appendChild(el("span", { className: "key hl hl-negative", text: "negative tone" }));
      legend.appendChild(document.createTextNode(" "));
      legend.appendChild(el("span", { className: "key hl hl-fallacy", text: "fallacy" }));
      legend.appendChild(document.createTextNode(" "));
    }
    if (coded) {
      legend.appendChild(el("span", { className: "key hl hl-coded", text: "dog whistle" }));
      legend.appendChild(document.createTextNode(" "));
    }
    if (score || coded) {
      legend.appendChild(document.createTextNode(highlights.length ? "Hover or focus (Tab) a highlight for the explanation." : "Nothing was quoted."));
    }
    var at = 0;
    highlights.forEach(function (h) {
      if (h.start > at) shaded(comment.slice(at, h.start), at, shading, target);
      var tipId = "tip-" + (++tipCounter);
      var mark = el("mark", {
        className: "hl " + h.kinds.map(function (k) { return "hl-" + k; }).join(" "),
        attrs: { tabindex: 0, "aria-describedby": tipId, "data-kinds": h.kinds.join(" ") }
      });
      // A quote is shaded too: a fallacy quotes a whole sentence, and the comment's toxicity shading
      // must not vanish under its highlights (the mark keeps its coloured underline).
      var quoted = el("span", { className: "hl-text" });
      shaded(comment.slice(h.start, h.end), h.start, shading, quoted);
      mark.appendChild(quoted);
      var tip = el("span", { className: "tip", attrs: { role: "tooltip", id: tipId } });
      h.notes.forEach(function (n) {
        var line = el("span", { className: "tip-line" }, [el("strong", { text: n.title + ": " }), n.explanation || "no explanation given"]);
        if (n.rewrite) line.appendChild(el("em", { text: " Try: " + n.rewrite }));
        tip.appendChild(line);
      });
      mark.appendChild(tip);
      mark.addEventListener("keydown", function (event) {
        if (event.key === "Escape") mark.classList.add("tip-dismissed");
      });
      mark.addEventListener("blur", function () { mark.classList.remove("tip-dismissed"); });
      mark.addEventListener("mouseenter", function () { mark.classList.remove("tip-dismissed"); });
      target.appendChild(mark);
      at = h.end;
    });
    if (at < comment.length) shaded(comment.slice(at), at, shading, target);
  }

  function phraseList(title, items, quoteOf, explain, rewrite) {
    var box = el("div", { className: "phrases" }, [el("h4", { text: title + " (" + items.length + ")" })]);
    if (!items.length) { box.appendChild(el("p", { className: "muted", text: "None." })); return box; }
    var list = el("ul", {});
    items.forEach(function (item) {
      var li = el("li", {}, [el("q", { text: quoteOf(item) })]);
      if (explain(item)) li.appendChild(el("span", { className: "explain", text: " " + explain(item) }));
      if (rewrite(item)) li.appendChild(el("span", { className: "rewrite", text: " Suggested: " + rewrite(item) }));
      list.appendChild(li);
    });
    box.appendChild(list);
    return box;
  }

  function verdict(ok, yes, no) {
    return el("span", { className: "verdict " + (ok ? "good" : "bad"), text: ok ? yes : no });
  }

  function renderScore(score) {
    var section = $("score-section");
    var target = $("score-body");
    clear(target);
    if (!score) { section.hidden = true; return; }
    section.hidden = false;
    var dots = el("span", { className: "dots", attrs: { "aria-hidden": "true" } });
    for (var i = 1; i <= 5; i++) dots.appendChild(el("span", { className: "dot" + (i <= score.overall_score ? " on" : "") }));
    target.appendChild(el("p", { className: "overall" }, [
      el("span", { className: "overall-value", attrs: { id: "overall-score" }, text: String(score.overall_score) }),
      el("span", { className: "overall-of", text: " / 5" }),
      dots
    ]));
    var facts = el("dl", { className: "facts" });
    metaItem(facts, "Toxicity", fmt(score.toxicity_score));
    metaItem(facts, "Low effort", score.appears_low_effort ? "yes" : "no");
    target.appendChild(facts);
    if (score.toxicity_explanation) target.appendChild(el("p", { className: "reason", text: score.toxicity_explanation }));
    target.appendChild(phraseList("Logical fallacies", score.logical_fallacies,
      function (f) { return f.quoted_logical_fallacy_example; },
      function (f) { return f.fallacy_name + (f.explanation_and_suggestions ? ": " + f.explanation_and_suggestions : ""); },
      function (f) { return f.suggested_rewrite; }));
    target.appendChild(phraseList("Objectionable phrases", score.objectionable_phrases,
      function (p) { return p.quoted_objectionable_phrase; }, function (p) { return p.explanation; }, function (p) { return p.suggested_rewrite; }));
    target.appendChild(phraseList("Negative tone", score.negative_tone_phrases,
      function (p) { return p.quoted_negative_tone_phrase; }, function (p) { return p.explanation; }, function (p) { return p.suggested_rewrite; }));
  }

  function renderSpam(spam) {
    var section = $("spam-section");
    var target = $("spam-body");
    clear(target);
    if (!spam) { section.hidden = true; return; }
    section.hidden = false;
    target.appendChild(el("p", { attrs: { id: "spam-verdict" } }, [verdict(!spam.is_spam, "Not spam", "Spam"), " confidence " + pct(spam.confidence)]));
    target.appendChild(el("p", { className: "reason", text: spam.reasoning }));
  }

  function renderRelevance(relevance) {
    var section = $("relevance-section");
    var target = $("relevance-body");
    clear(target);
    if (!relevance) { section.hidden = true; return; }
    section.hidden = false;
    var on = relevance.on_topic;
    target.appendChild(el("h4", { text: "On topic" }));
    target.appendChild(el("p", { attrs: { id: "on-topic-verdict" } }, [verdict(on.on_topic, "On topic", "Off topic"), " confidence " + pct(on.confidence)]));
    target.appendChild(el("p", { className: "reason", text: on.reasoning }));
    var banned = relevance.banned_topics;
    target.appendChild(el("h4", { text: "Banned topics" }));
    var hit = banned.banned_topics.length > 0;
    target.appendChild(el("p", { attrs: { id: "banned-verdict" } }, [
      verdict(!hit, "None discussed", "Discusses: " + banned.banned_topics.join(", ")),
      " share of the comment " + pct(banned.quantity_on_banned_topics) + ", confidence " + pct(banned.confidence)
    ]));
    target.appendChild(el("p", { className: "reason", text: banned.reasoning }));
  }

  function renderDogwhistle(dogwhistle) {
    var section = $("dogwhistle-section");
    var target = $("dogwhistle-body");
    clear(target);
    if (!dogwhistle) { section.hidden = true; return; }
    section.hidden = false;
    var found = dogwhistle.detection.dogwhistles_detected;
    target.appendChild(el("p", { attrs: { id: "dogwhistle-verdict" } }, [
      verdict(!found, "No coded language", "Coded language"), " confidence " + pct(dogwhistle.detection.confidence)
    ]));
    var details = dogwhistle.details;
    if (details) {
      var facts = el("dl", { className: "facts" });
      metaItem(facts, "Categories", details.categories.join(", ") || "none named");
      metaItem(facts, "Subtlety", pct(details.subtlety_level));
      metaItem(facts, "Harm potential", pct(details.harm_potential));
      target.appendChild(facts);
      var terms = el("ul", { attrs: { id: "dogwhistle-terms" } });
      details.dogwhistle_terms.forEach(function (t) { terms.appendChild(el("li", {}, [el("q", { text: t })])); });
      target.appendChild(el("div", { className: "phrases" }, [el("h4", { text: "Terms (" + details.dogwhistle_terms.length + ")" }), terms]));
    }
    target.appendChild(el("p", { className: "reason", text: dogwhistle.detection.reasoning }));
  }

  function renderLlm(llm) {
    var section = $("llm-section");
    var target = $("llm-body");
    clear(target);
    if (!llm) { section.hidden = true; return; }
    section.hidden = false;
    var machine = llm.llm_likelihood >= 0.5;
    target.appendChild(el("p", { attrs: { id: "llm-verdict" } }, [
      verdict(!machine, "Likely written by a person", "Likely machine-written"),
      " likelihood " + pct(llm.llm_likelihood) + ", confidence " + pct(llm.confidence)
    ]));
    target.appendChild(phraseList("Signals", llm.signals_detected,
      function (s) { return s.quoted_text; }, function (s) { return s.signal_type.replace("_", " ") + ": " + s.description; }, function () { return ""; }));
    target.appendChild(el("p", { className: "reason", text: llm.reasoning }));
  }

  // ------------------------------------------------------------------ corrections

  function sendCorrection(event) {
    event.preventDefault();
    var name = $("correct-attribute").value;
    var value = Number($("correct-value").value);
    if (!name || lastComment === null) return;
    if (!(value >= 0 && value <= 1)) {
      setStatus("correct-status", "The corrected score must be between 0 and 1.", "error");
      return;
    }
    var attributeScores = {};
    attributeScores[name] = { summaryScore: { value: value, type: "PROBABILITY" } };
    setStatus("correct-status", "Sending…", "busy");
    call("POST", "/v0.2/external-compat/suggestscore", { comment: { text: lastComment }, attributeScores: attributeScores, languages: ["en"] })
      .then(function (result) {
        if (result.status === 200) setStatus("correct-status", "Correction recorded: " + name + " = " + value.toFixed(2) + ".", "ok");
        else setStatus("correct-status", errorMessage(result), "error");
      }, networkFailure("correct-status"));
  }

  // ------------------------------------------------------------------ start

  function buildAttributeChecks() {
    var box = $("attributes");
    ATTRIBUTES.forEach(function (name) {
      var input = el("input", { attrs: { type: "checkbox", id: "attr-" + name, value: name } });
      input.checked = DEFAULT_ATTRIBUTES.indexOf(name) >= 0;
      box.appendChild(el("label", {}, [input, " " + name]));
    });
  }

  function serverInfo() {
    call("GET", "/readyz", undefined, { anonymous: true }).then(function (result) {
      var info = $("server-info");
      if (result.json && result.json.model) {
        configuredModel = result.json.model;
        var mode = configuredModel.indexOf("+") > 0 ? "cascade" : configuredModel.indexOf("openai:") === 0 ? "llm" : "local";
        info.textContent = "Server " + (result.json.status || "up") + " · engine " + mode + " · models " + configuredModel;
      } else {
        info.textContent = "The server answered /readyz with " + result.status + ".";
      }
    }, function () { $("server-info").textContent = "The server did not answer /readyz."; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    buildAttributeChecks();
    $("login-form").addEventListener("submit", signIn);
    $("logout-button").addEventListener("click", signOut);
    $("context-form").addEventListener("submit", createContext);
    $("context-source-text").addEventListener("change", toggleContextSource);
    $("context-source-url").addEventListener("change", toggleContextSource);
    $("context-refresh").addEventListener("click", function () { loadContexts(); });
    $("context-select").addEventListener("change", describeContext);
    $("evaluate-form").addEventListener("submit", evaluate);
    $("correct-form").addEventListener("submit", sendCorrection);
    $("correct-attribute").addEventListener("change", syncCorrection);
    serverInfo();
    var saved = loadCredentials();
    if (saved) {
      $("email").value = saved.email;
      $("api-key").value = saved.key;
      signIn();
    }
  });
})();
`
