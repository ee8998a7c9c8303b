#!/usr/bin/env python3
"""Drives Decorum with Google's own Python client (google-api-python-client, Debian's
python3-googleapi), exactly as a Perspective user does, changing only the discovery URL and key.

Usage: google_client.py BASE_URL KEY
Prints one JSON object on stdout with what the client returned; the vitest suite asserts on it.
Exit status 0 when every call was made (whatever the server answered), 2 when the client is missing.
"""
import inspect
import json
import sys

try:
    import httplib2
    from googleapiclient import discovery
    from googleapiclient.errors import HttpError
    import googleapiclient
except ImportError as e:  # the vitest suite checks for this before running the script
    print(json.dumps({"error": "googleapiclient is not installed: %s" % e}))
    sys.exit(2)


def http_error(e):
    """What a caller of the client sees of an HttpError: the status, the message and the body."""
    try:
        body = json.loads(e.content.decode("utf-8") if isinstance(e.content, bytes) else e.content)
    except Exception:
        body = None
    return {"status": int(e.resp.status), "reason": e._get_reason(), "body": body}


def call(request):
    try:
        return {"ok": request.execute()}
    except HttpError as e:
        return {"httpError": http_error(e)}


def build(base, key):
    kwargs = dict(
        developerKey=key,
        discoveryServiceUrl=base + "/$discovery/rest?version={apiVersion}",
        cache_discovery=False,
        # No proxy from the environment: the server is on loopback.
        http=httplib2.Http(timeout=20, proxy_info=None),
    )
    # Version 2 of the client ships static discovery documents and needs this to fetch ours;
    # version 1 (Debian bookworm's 1.7.12) always fetches and has no such parameter.
    if "static_discovery" in inspect.signature(discovery.build).parameters:
        kwargs["static_discovery"] = False
    return discovery.build("commentanalyzer", "v1alpha1", **kwargs)


def main():
    base, key = sys.argv[1].rstrip("/"), sys.argv[2]
    out = {"clientVersion": googleapiclient.__version__}
    service = build(base, key)
    comments = service.comments()

    text = "You are an idiot. The park plan is good!  Thanks 😀"
    out["text"] = text
    out["analyze"] = call(comments.analyze(body={
        "comment": {"text": text},
        "requestedAttributes": {"TOXICITY": {}, "INSULT@2": {}},
        "spanAnnotations": True,
        "languages": ["en"],
        "clientToken": "py-1",
    }))
    out["analyzeHtml"] = call(comments.analyze(body={
        "comment": {"text": "<p>Fish &amp; chips &lt;3</p><p>What an idiot</p>", "type": "HTML"},
        "requestedAttributes": {"TOXICITY": {}},
        "spanAnnotations": True,
    }))
    out["analyzeEmpty"] = call(comments.analyze(body={"comment": {"text": ""}, "requestedAttributes": {"TOXICITY": {}}}))
    # Issue 28: a language without a model (the test providers detect `[lang:xx]` markers), a
    # requested language without one, and a comment with nothing to detect.
    out["analyzeUnsupported"] = call(comments.analyze(body={"comment": {"text": "[lang:sv] Du är en idiot"}, "requestedAttributes": {"TOXICITY": {}}}))
    out["analyzeRequestedUnsupported"] = call(comments.analyze(body={"comment": {"text": "hello"}, "requestedAttributes": {"TOXICITY": {}}, "languages": ["cs"]}))
    out["analyzeUndetected"] = call(comments.analyze(body={"comment": {"text": "👍 123"}, "requestedAttributes": {"TOXICITY": {}}}))
    out["analyzeGerman"] = call(comments.analyze(body={"comment": {"text": "[lang:de] Du Idiot"}, "requestedAttributes": {"TOXICITY": {}}}))
    out["suggest"] = call(comments.suggestscore(body={
        "comment": {"text": "This comment is fine, really."},
        "attributeScores": {"TOXICITY": {"summaryScore": {"value": 0.0}}},
        "languages": ["en"],
        "communityId": "py-community",
        "sessionId": "py-session",
        "clientToken": "py-suggest-1",
    }))

    # A batch of several analyze requests, one of which is invalid: as HELM and research harnesses do.
    batch_results = {}

    def collect(request_id, response, exception):
        if exception is not None:
            batch_results[request_id] = {"httpError": http_error(exception)}
        else:
            batch_results[request_id] = {"ok": response}

    batch = service.new_batch_http_request(callback=collect)
    batch_texts = {"b1": "What a lovely day.", "b2": "You stupid idiot.", "b3": "Second sentence here. And a third one"}
    for request_id, t in batch_texts.items():
        batch.add(comments.analyze(body={
            "comment": {"text": t},
            "requestedAttributes": {"TOXICITY": {}},
            "spanAnnotations": True,
            "languages": ["en"],
        }), request_id=request_id)
    batch.add(comments.analyze(body={"comment": {"text": "hello"}, "requestedAttributes": {"NOT_AN_ATTRIBUTE": {}}}),
              request_id="bad")
    batch.add(comments.suggestscore(body={
        "comment": {"text": "Batch suggestion."},
        "attributeScores": {"INSULT": {"summaryScore": {"value": 1}}},
        "clientToken": "py-batch-suggest",
    }), request_id="s1")
    batch.execute()
    out["batchTexts"] = batch_texts
    out["batch"] = batch_results

    # A wrong key: the client raises HttpError with Google's message.
    bad = build(base, "dk_aaaaaaaaaa_notavalidsecretnotavalidsecret00")
    out["badKey"] = call(bad.comments().analyze(body={"comment": {"text": "hi"}, "requestedAttributes": {"TOXICITY": {}}}))

    print(json.dumps(out))


if __name__ == "__main__":
    main()
