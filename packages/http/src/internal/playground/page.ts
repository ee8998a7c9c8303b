/**
 * The playground's HTML. Static: no response data is ever interpolated here (the script fills the
 * page with `textContent`), so this markup needs no escaping and the CSP allows no inline code.
 */
export const PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Decorum playground</title>
<link rel="icon" href="/playground/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/playground/playground.css">
<script src="/playground/playground.js" defer></script>
</head>
<body>
<a class="skip" href="#compose">Skip to the comment</a>
<header class="top">
  <div class="wrap top-row">
    <div>
      <h1>Decorum playground</h1>
      <p class="lede">Paste a comment and see what every evaluation makes of it.</p>
    </div>
    <nav aria-label="Links">
      <a href="/docs">API reference</a>
      <a href="/openapi.json">OpenAPI</a>
    </nav>
  </div>
  <p class="wrap engine-line" id="server-info" aria-live="polite">Checking the server…</p>
</header>

<main class="wrap">
  <noscript><p class="notice error">The playground needs JavaScript (served by this server; nothing is loaded from elsewhere).</p></noscript>

  <section class="card" id="credentials" aria-labelledby="credentials-title">
    <h2 id="credentials-title"><span class="step" aria-hidden="true">1</span> Credentials</h2>
    <p class="hint">An account email and one of its API keys (<code>npx decorum keys create --email you@example.com</code>).
      They stay in this browser tab's session storage and are sent only as headers to this server.</p>
    <form id="login-form" class="grid-2" autocomplete="on">
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required spellcheck="false" placeholder="admin@localhost">
      </div>
      <div class="field">
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="current-password" required spellcheck="false" placeholder="dk_…">
      </div>
      <div class="actions span-2">
        <button type="submit" class="primary" id="login-button">Use these credentials</button>
        <button type="button" id="logout-button">Forget them</button>
      </div>
    </form>
    <p class="status" id="login-status" role="status"></p>
  </section>

  <section class="card" id="context" aria-labelledby="context-title">
    <h2 id="context-title"><span class="step" aria-hidden="true">2</span> Article context</h2>
    <p class="hint">What the comment is judged against: the article or page it was posted under. Comment scoring and
      relevance need one; spam, dog whistles, machine-written text and Perspective attributes do not.</p>
    <div class="field">
      <label for="context-select">Use an existing context</label>
      <div class="inline">
        <select id="context-select"><option value="">No context</option></select>
        <button type="button" id="context-refresh">Reload list</button>
      </div>
    </div>
    <p class="context-about" id="context-about" aria-live="polite"></p>
    <details id="context-create-box">
      <summary>Create a context</summary>
      <form id="context-form">
        <fieldset class="radios">
          <legend>From</legend>
          <label><input type="radio" name="context-source" value="text" id="context-source-text" checked> pasted text</label>
          <label><input type="radio" name="context-source" value="url" id="context-source-url"> a URL the server fetches</label>
        </fieldset>
        <div class="field" id="context-text-field">
          <label for="context-text">Article text</label>
          <textarea id="context-text" rows="5"></textarea>
        </div>
        <div class="field" id="context-url-field" hidden>
          <label for="context-url">Article URL</label>
          <input id="context-url" type="url" placeholder="https://example.com/article" spellcheck="false">
        </div>
        <div class="grid-2">
          <div class="field">
            <label for="context-title-input">Title <span class="optional">(optional)</span></label>
            <input id="context-title-input" type="text">
          </div>
          <div class="field">
            <label for="context-topic">Topic description <span class="optional">(optional)</span></label>
            <input id="context-topic" type="text">
          </div>
        </div>
        <div class="actions"><button type="submit" class="primary" id="context-create">Create context</button></div>
      </form>
    </details>
    <p class="status" id="context-status" role="status"></p>
  </section>

  <section class="card" id="compose" aria-labelledby="compose-title" tabindex="-1">
    <h2 id="compose-title"><span class="step" aria-hidden="true">3</span> Comment</h2>
    <form id="evaluate-form">
      <div class="field">
        <label for="comment">Comment</label>
        <textarea id="comment" rows="4" required></textarea>
      </div>
      <div class="grid-2">
        <div class="field">
          <label for="reply-to">Replying to <span class="optional">(optional: the parent comment)</span></label>
          <textarea id="reply-to" rows="2"></textarea>
        </div>
        <div class="field">
          <label for="banned-topics">Banned topics <span class="optional">(optional: one per line or comma separated)</span></label>
          <textarea id="banned-topics" rows="2"></textarea>
        </div>
      </div>
      <div class="grid-2">
        <div class="field">
          <label for="sensitive-topics">Sensitive topics <span class="optional">(optional: where coded language is expected; one per line or comma separated)</span></label>
          <textarea id="sensitive-topics" rows="2"></textarea>
        </div>
        <div class="field">
          <label for="dogwhistle-examples">Coded terms seen on this site <span class="optional">(optional: watched for at once; one per line or comma separated)</span></label>
          <textarea id="dogwhistle-examples" rows="2"></textarea>
        </div>
      </div>
      <div class="grid-2">
        <fieldset class="checks">
          <legend>Evaluations</legend>
          <label><input type="checkbox" id="run-comment-score" checked> Comment score (phrases, fallacies, 1-5)</label>
          <label><input type="checkbox" id="run-spam-check" checked> Spam</label>
          <label><input type="checkbox" id="run-relevance-check" checked> On topic and banned topics</label>
          <label><input type="checkbox" id="run-dogwhistle-check" checked> Dog whistles (coded language)</label>
          <label><input type="checkbox" id="run-llm-detect" checked> Machine-written (LLM) text</label>
          <label><input type="checkbox" id="run-perspective" checked> Perspective attributes</label>
        </fieldset>
        <fieldset class="checks attrs" id="attributes">
          <legend>Perspective attributes</legend>
        </fieldset>
      </div>
      <div class="actions"><button type="submit" class="primary" id="evaluate-button">Evaluate</button></div>
    </form>
    <p class="status" id="evaluate-status" role="status"></p>
  </section>

  <section class="card results" id="results" aria-labelledby="results-title" tabindex="-1" hidden>
    <h2 id="results-title">Results</h2>
    <dl class="meta" id="result-meta"></dl>
    <div id="result-errors"></div>

    <section id="comment-section" class="block" aria-labelledby="comment-section-title" hidden>
      <h3 id="comment-section-title">The comment, annotated</h3>
      <p class="legend" id="comment-legend"></p>
      <p class="annotated" id="annotated-comment"></p>
    </section>

    <div class="grid-results">
      <section id="perspective-section" class="block" aria-labelledby="perspective-title" hidden>
        <h3 id="perspective-title">Perspective attributes</h3>
        <p class="hint">Marks at the usual thresholds: 0.5, 0.7 and 0.9.</p>
        <ul class="bars" id="bars"></ul>
        <form id="correct-form" class="correct" aria-labelledby="correct-title">
          <h4 id="correct-title">Correct this score</h4>
          <p class="hint">Sends a suggestscore: your correction is stored for site adaptation.</p>
          <div class="inline wrap-row">
            <div class="field">
              <label for="correct-attribute">Attribute</label>
              <select id="correct-attribute"></select>
            </div>
            <div class="field">
              <label for="correct-value">Correct score (0 to 1)</label>
              <input id="correct-value" type="number" min="0" max="1" step="0.01" required inputmode="decimal">
            </div>
            <button type="submit" id="correct-button">Send correction</button>
          </div>
          <p class="status" id="correct-status" role="status"></p>
        </form>
      </section>

      <section id="score-section" class="block" aria-labelledby="score-title" hidden>
        <h3 id="score-title">Comment score</h3>
        <div id="score-body"></div>
      </section>

      <section id="spam-section" class="block" aria-labelledby="spam-title" hidden>
        <h3 id="spam-title">Spam</h3>
        <div id="spam-body"></div>
      </section>

      <section id="relevance-section" class="block" aria-labelledby="relevance-title" hidden>
        <h3 id="relevance-title">Relevance</h3>
        <div id="relevance-body"></div>
      </section>

      <section id="dogwhistle-section" class="block" aria-labelledby="dogwhistle-title" hidden>
        <h3 id="dogwhistle-title">Dog whistles</h3>
        <div id="dogwhistle-body"></div>
      </section>

      <section id="llm-section" class="block" aria-labelledby="llm-title" hidden>
        <h3 id="llm-title">Machine-written text</h3>
        <div id="llm-body"></div>
      </section>
    </div>

    <details class="raw" id="raw-box">
      <summary>Raw JSON</summary>
      <pre id="raw-json" tabindex="0"></pre>
    </details>
  </section>
</main>
<footer class="wrap foot"><p>Everything on this page is served by this Decorum server; nothing is loaded from elsewhere.</p></footer>
</body>
</html>
`
