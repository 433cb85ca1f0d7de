#!/usr/bin/env python3
"""Times POST /v1/ns/{ns}/ingest of issue 14's 2,000-line document through real HTTP.

Starts `java -jar DIST/loci.jar --data TMP serve --port P` (a default server: no loci.toml, the
default embedding model), posts the document once into a warm-up namespace (model loading and
JIT), then ROUNDS times into a fresh namespace each (q1, q2, ...), and prints each round's wall
time and the server process's CPU time over it (user + system, all its threads: what the route
costs, less sensitive than wall time to other processes on the machine), the medians and the
server's peak resident memory (VmHWM). Every text of the document is
embedded in the first round; later rounds find the vectors in the server's embedding cache, so
round 1 is the cold figure and the median of the rest the warm one.

  python3 loci-bench/scripts/ingest_route.py [--dist loci-cli/target] [--rounds 5] [--java-opts ...]
"""
import argparse, json, os, shutil, socket, statistics, subprocess, sys, tempfile, time
import urllib.request


def document():
    text = "# Sec\n\n" + "".join(f"{i}. Item {i} ships.\n\n" for i in range(1, 2001))
    return json.dumps(
        {"pack": "markdown:contract", "documents": [{"path": "d.md", "text": text}]}
    ).encode()


def post(port, ns, body):
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/ns/{ns}/ingest",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=600) as r:
        out = json.loads(r.read())
    return time.perf_counter() - t, out


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--dist", default="loci-cli/target")
    a.add_argument("--rounds", type=int, default=5)
    a.add_argument("--java-opts", default="")
    args = a.parse_args()
    data = tempfile.mkdtemp(prefix="ingest-route-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = ["java", *args.java_opts.split(), "-jar", os.path.join(args.dist, "loci.jar"),
           "--data", data, "serve", "--port", str(port)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        body = document()
        warm, _ = post(port, "warm", body)
        times = []
        cpus = []
        for r in range(1, args.rounds + 1):
            before = cpu_seconds(server.pid)
            t, out = post(port, f"q{r}", body)
            cpu = cpu_seconds(server.pid) - before
            item = out["items"][0]
            times.append(t)
            cpus.append(cpu)
            print(f"round {r}: {t * 1000:.0f} ms, server CPU {cpu * 1000:.0f} ms"
                  f" ({item['nodes']} nodes, {item['edges']} edges)")
        with open(f"/proc/{server.pid}/status") as f:
            hwm = next(l.split()[1] for l in f if l.startswith("VmHWM"))
        print(f"warm-up (cold model and cache): {warm * 1000:.0f} ms")
        print(f"median of {args.rounds}: {statistics.median(times) * 1000:.0f} ms,"
              f" min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms;"
              f" server CPU median {statistics.median(cpus) * 1000:.0f} ms;"
              f" peak RSS {int(hwm) // 1024} MiB; load {os.getloadavg()[0]:.1f}")
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
