#!/usr/bin/env python3
"""Language server memory (issue 34): RSS of `urlint server` after opening a
large plain-text document and after each of a run of one-character edits,
each waited for until its diagnostics are published. Memory must stay a
bounded multiple of the document and must not grow with the edits.

Usage: benches/lsp-memory.py BINARY MEGABYTES EDITS [FILE]
  e.g. benches/lsp-memory.py target/release/urlint 50 20
With FILE, the document is that file's text (read as UTF-8, undecodable
bytes as U+FFFD) instead of MEGABYTES of a line with one finding, so real
text's density of findings can be measured (MEGABYTES is then ignored).
"""
import json
import subprocess
import sys
import time

binary = sys.argv[1]; mb = int(sys.argv[2]); edits = int(sys.argv[3])
path = sys.argv[4] if len(sys.argv) > 4 else None
p = subprocess.Popen([binary, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(obj):
    body = json.dumps(obj).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body); p.stdin.flush()
def read():
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        c = p.stdout.read(1)
        if not c: return None
        header += c
    n = int([l for l in header.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
    return json.loads(p.stdout.read(n))
def rss():
    d = {}
    for l in open(f"/proc/{p.pid}/status"):
        k, v = l.split(":", 1); d[k] = v.strip()
    return d["VmRSS"], d["VmHWM"]
def wait_diag(version):
    while True:
        m = read()
        if m is None: raise SystemExit("server ended")
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version:
            return len(m["params"]["diagnostics"])
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":None,"rootUri":None,"capabilities":{}}})
while True:
    m = read()
    if m.get("id") == 1: break
send({"jsonrpc":"2.0","method":"initialized","params":{}})
line = "Text with a URL http://a.example/~x/path and some words around it here.\n"
if path:
    text = open(path, "rb").read().decode("utf-8", "replace")
else:
    text = line * (mb * 1_000_000 // len(line))
t = time.time()
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/big.txt","languageId":"plaintext","version":1,"text":text}}})
n = wait_diag(1)
print(f"open: {len(text.encode()) / 1e6:.1f} MB, {n} diagnostics, {time.time()-t:.1f}s, rss/hwm {rss()}", flush=True)
for v in range(2, edits + 2):
    send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///tmp/big.txt","version":v},"contentChanges":[{"range":{"start":{"line":v,"character":0},"end":{"line":v,"character":0}},"text":"x"}]}})
    n = wait_diag(v)
    print(f"edit {v-1}: {n} diags, rss/hwm {rss()}", flush=True)
send({"jsonrpc":"2.0","id":2,"method":"shutdown"}); 
send({"jsonrpc":"2.0","method":"exit"})
p.wait(timeout=30)
