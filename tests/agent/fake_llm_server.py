#!/usr/bin/env python3
"""A scripted chat-completions server for tests: a real HTTP server on
loopback (Python standard library only) that stands in for a remote model.

Usage: fake_llm_server.py --script SCRIPT.json --record RECORD.jsonl --port-file PORT

It binds 127.0.0.1 on a free port, writes the port number to --port-file
(atomically, once it is listening) and answers POST requests from the script:

  {"responses": [ENTRY, ...], "then": "repeat_last" | "fail"}

ENTRY (the n-th request gets the n-th entry; after the last one, "then"
decides: repeat the last entry (default) or answer 500):
  status   HTTP status (default 200)
  headers  extra response headers, e.g. {"Retry-After": "1"}
  delay    seconds to wait before answering
  content  the assistant message text: the server builds a chat completion
  body     a JSON value sent as the body
  raw      text sent as the body as it is (e.g. malformed JSON)
  drop     true: close the connection without answering

Every request is appended to --record before it is answered, one JSON object
per line: index, method, path, headers, body (text), body_base64 (exact bytes).
"""

import argparse
import base64
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Script:
    def __init__(self, path):
        with open(path, "r", encoding="utf-8") as f:
            data = json.load(f)
        self.responses = data.get("responses", [])
        self.then = data.get("then", "repeat_last")
        self.count = 0
        self.lock = threading.Lock()

    def next(self):
        with self.lock:
            index = self.count
            self.count += 1
        if index < len(self.responses):
            return index, self.responses[index]
        if self.then == "repeat_last" and self.responses:
            return index, self.responses[-1]
        return index, {"status": 500, "body": {"error": {"message": "script exhausted"}}}


def completion(content, model):
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": "stop",
        }],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def make_handler(script, record_path, record_lock):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            pass

        def do_GET(self):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length) if length > 0 else b""
            index, entry = script.next()
            with record_lock:
                with open(record_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps({
                        "index": index,
                        "method": "POST",
                        "path": self.path,
                        "headers": {k: v for k, v in self.headers.items()},
                        "body": body.decode("utf-8", errors="replace"),
                        "body_base64": base64.b64encode(body).decode("ascii"),
                    }) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
            delay = float(entry.get("delay", 0))
            if delay > 0:
                time.sleep(delay)
            if entry.get("drop"):
                self.close_connection = True
                try:
                    self.connection.shutdown(2)
                except OSError:
                    pass
                return
            status = int(entry.get("status", 200))
            if "raw" in entry:
                payload = entry["raw"].encode("utf-8")
            elif "body" in entry:
                payload = json.dumps(entry["body"]).encode("utf-8")
            else:
                model = "fake-model"
                try:
                    model = json.loads(body).get("model", model)
                except (ValueError, AttributeError):
                    pass
                payload = json.dumps(completion(entry.get("content", ""), model)).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in entry.get("headers", {}).items():
                    self.send_header(name, str(value))
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout): nothing to answer

    return Handler


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # clients that time out or are dropped on purpose are expected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()

    script = Script(args.script)
    server = QuietServer(("127.0.0.1", 0), make_handler(script, args.record, threading.Lock()))
    temp = args.port_file + ".tmp"
    with open(temp, "w", encoding="ascii") as f:
        f.write(str(server.server_address[1]))
    os.replace(temp, args.port_file)

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever(poll_interval=0.05)
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
