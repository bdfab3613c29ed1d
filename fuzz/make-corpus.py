#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target>/ from the real records, replies and logs captured from nats-server 2.9.10,
2.10.27 and 2.15.1 (tests/unit/data, tests/gui/data; raw JetStream API replies in tests/unit/data/jetstream)
and the documented profile examples.

Run from anywhere: python3 fuzz/make-corpus.py. Rewrites the seed files (names start with the
server version or "doc-"); files libFuzzer or people added under other names stay.
Stored-message targets read `<subject>\\n<header block><body>` (see fuzzinput.h).
"""
import base64
import glob
import hashlib
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
RECORD_TARGETS = {
    "MQTT_sess": "sessionrecord",
    "MQTT_rmsgs": "retainedrecord",
    "MQTT_msgs": "inflightrecord",
    "MQTT_qos2in": "inflightrecord",
    "MQTT_out": "inflightrecord",
}


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def short(data):
    return hashlib.sha1(data if isinstance(data, bytes) else data.encode()).hexdigest()[:10]


def records():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/unit/data/records/*/MQTT_*.json"))):
        version = os.path.basename(os.path.dirname(path))
        stem = os.path.basename(path)[:-len(".json")]
        target = RECORD_TARGETS[stem.split(".")[0]]
        capture = json.load(open(path))
        for m in capture["messages"]:
            hdrs = base64.b64decode(m.get("hdrs") or "")
            data = base64.b64decode(m.get("data") or "")
            seed = m["subject"].encode() + b"\n" + hdrs + data
            write(target, f"{version}-{stem}-{m['seq']}", seed)
            # The same message as a MSG.GET reply, for the reply parsers.
            reply = {"type": "io.nats.jetstream.api.v1.stream_msg_get_response", "message": m}
            write("replies", f"{version}-msgget-{stem}-{m['seq']}", json.dumps(reply))
            if m["seq"] <= 3:  # a few of each stream for MessageGetter::parseMessageGetReply
                write("jetstreamreply", f"{version}-msgget-{stem}-{m['seq']}", json.dumps(reply))
            if target == "sessionrecord":
                # Session bodies also reach the retained and in-flight decoders in real streams (wrong stream).
                write("retainedrecord", f"{version}-as-retained-{stem}-{m['seq']}", b"$MQTT.rmsgs\n" + data)
        info = {"type": "io.nats.jetstream.api.v1.stream_info_response", "config": capture["config"],
                "state": {"messages": len(capture["messages"]), "first_seq": 1, "last_seq": len(capture["messages"])}}
        write("replies", f"{version}-streaminfo-{stem}", json.dumps(info))


def replies():
    paths = glob.glob(os.path.join(ROOT, "tests/unit/data/checks/*.json"))
    paths += glob.glob(os.path.join(ROOT, "tests/unit/data/jsz-*.json"))
    paths += glob.glob(os.path.join(ROOT, "tests/gui/data/*.json"))
    for path in sorted(paths):
        stem = os.path.basename(path)[:-len(".json")]
        doc = json.load(open(path))
        items = doc if isinstance(doc, list) else [doc]
        for i, item in enumerate(items):
            write("replies", f"{stem}-{i}", json.dumps(item))
            for account in (item.get("data") or {}).get("account_details") or []:
                for stream in account.get("stream_detail") or []:
                    write("replies", f"{stem}-{i}-stream-{short(json.dumps(stream))}", json.dumps(stream))
    write("replies", "doc-error", json.dumps({"type": "io.nats.jetstream.api.v1.stream_info_response",
                                               "error": {"code": 404, "err_code": 10059, "description": "stream not found"}}))


def jetstream_replies():
    # The exact bytes each server sent (capture.py in that folder), then shapes the server does not send
    # but anything answering on $JS.API could: unknown codes, no description, huge numbers, wrong types.
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/unit/data/jetstream/*/*.json"))):
        version = os.path.basename(os.path.dirname(path))
        write("jetstreamreply", f"{version}-{os.path.basename(path)[:-len('.json')]}", open(path, "rb").read())
    docs = {
        "doc-error-unknown-code": {"error": {"code": 599, "err_code": 19999, "description": "something new"}},
        "doc-error-no-description": {"error": {"code": 500, "err_code": 10077}},
        "doc-error-huge-codes": {"error": {"code": 1e300, "err_code": -9.3e18, "description": "x"}},
        "doc-error-wrong-types": {"error": {"code": "404", "err_code": [10059], "description": {"text": "no"}}},
        "doc-error-string": {"error": "stream not found"},
        "doc-stream-info-huge-state": {"config": {"name": "$MQTT_sess", "subjects": ["$MQTT.sess.>"]},
                                        "state": {"messages": 1.8e19, "bytes": -1, "first_seq": 1e308}},
        "doc-list-null": {"total": 0, "offset": 0, "limit": 256, "streams": None, "consumers": None},
    }
    for name, doc in docs.items():
        write("jetstreamreply", name, json.dumps(doc))
    write("jetstreamreply", "doc-empty", "")
    write("jetstreamreply", "doc-null", "null")
    write("jetstreamreply", "doc-array", "[{\"error\": {\"code\": 404}}]")
    write("jetstreamreply", "doc-html", "<html><body>502 Bad Gateway</body></html>")


def logs():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/unit/data/logs/*/*.log"))):
        version = os.path.basename(os.path.dirname(path))
        lines = [l for l in open(path, encoding="utf-8", errors="replace").read().splitlines() if "MQTT" in l or "mid:" in l]
        # A few lines per seed keeps inputs small; libFuzzer mixes them.
        for i in range(0, len(lines), 4):
            chunk = "\n".join(lines[i:i + 4])
            write("logline", f"{version}-{os.path.basename(path)[:-4]}-{i // 4}", chunk)


def profiles():
    doc = open(os.path.join(ROOT, "docs", "profile.md")).read()
    parts = doc.split("```json")[1:]
    for i, part in enumerate(parts):
        text = part.split("```")[0]
        try:
            json.loads(text)
        except ValueError:
            continue
        write("profile", f"doc-profile-{i}", text.strip())
    context = {"description": "", "url": "nats://127.0.0.1:4222,nats://127.0.0.2:4222", "socks_proxy": "",
               "token": "", "user": "acme", "password": "acmepass", "creds": "", "nkey": "", "cert": "", "key": "",
               "ca": "", "nsc": "", "jetstream_domain": "hub", "jetstream_api_prefix": "", "jetstream_event_prefix": "",
               "inbox_prefix": "", "user_jwt": "", "user_seed": "", "color_scheme": "", "tls_first": False,
               "windows_cert_store": "", "windows_cert_match_by": "subject", "windows_cert_match": "",
               "windows_ca_certs_match": []}
    write("profile", "doc-context-user", json.dumps(context, indent=2))
    context.update({"user": "", "password": "", "creds": "~/creds/acme.creds", "ca": "$HOME/ca.pem",
                    "cert": "file:///etc/nats/client.pem", "key": "data:;base64,a2V5"})
    write("profile", "doc-context-creds", json.dumps(context, indent=2))


if __name__ == "__main__":
    records()
    replies()
    jetstream_replies()
    logs()
    profiles()
    for target in sorted(os.listdir(CORPUS)):
        print(target, len(os.listdir(os.path.join(CORPUS, target))))
