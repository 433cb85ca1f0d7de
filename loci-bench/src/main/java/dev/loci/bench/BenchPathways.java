package dev.loci.bench;

import dev.loci.pathway.BugFingerprint;
import dev.loci.pathway.KbChunkRef;
import dev.loci.pathway.LadderAttempt;
import dev.loci.pathway.ObserverSignal;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.SemanticFlag;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Synthetic pathway traces for the pathway benchmark, shaped like a code-review pipeline's: 50 task
 * classes, 2,000 crates ({@code crates/<name>/src/<file>.rs}), 6 signal classes (one of them
 * absent), 1-3 ladder attempts from 8 models, 0-3 knowledge-base chunks from 500 documents, 0-2
 * observer signals, 0-2 semantic flags and bug fingerprints, and a short reducer summary and
 * verdict.
 *
 * <p>Draft number {@code i} is a pure function of the seed and {@code i}, so concurrent writers can
 * take any numbers in any order and a run is reproducible. Task classes, crates and knowledge-base
 * documents are skewed (a few are common, most rare), so some pathways hold thousands of traces at
 * a million while most hold one or two: the mix a hot-swap lookup meets in practice.
 *
 * <p>Thread-safe and immutable.
 */
final class BenchPathways {
  /** The namespace every benchmark trace lives in. */
  static final String NAMESPACE = "bench.pathway";

  private static final String[] VERBS = {
    "review",
    "refactor",
    "triage",
    "audit",
    "fix",
    "test",
    "document",
    "migrate",
    "optimize",
    "scrum"
  };
  private static final String[] OBJECTS = {"pr", "module", "api", "schema", "build"};
  private static final String[] CRATE_HEADS = {
    "query", "index", "stream", "cache", "auth", "graph", "ledger", "vector", "token", "event",
    "shard", "batch", "route", "store", "sched", "metric", "trace", "blob", "codec", "proto",
    "wire", "lease", "quota", "gossip", "raft", "wal", "merge", "scan", "plan", "exec",
    "parse", "lex", "typeck", "borrow", "alloc", "pool", "queue", "timer", "clock", "fetch",
    "sync", "diff", "patch", "lint", "fmt", "bench", "probe", "crypto", "hash", "sign"
  };
  private static final String[] CRATE_TAILS = {
    "d", "core", "kit", "lib", "svc", "api", "io", "net", "db", "fs", "cli", "gen", "ops", "hub",
    "map", "log", "bus", "box", "lab", "way", "ctl", "srv", "engine", "server", "client", "proxy",
    "worker", "runtime", "types", "macros", "derive", "common", "shared", "model", "view", "state",
    "sdk", "bridge", "agent", "test"
  };
  private static final String[] MODULES = {
    "lib", "main", "service", "handler", "config", "error", "types", "client", "server", "codec",
    "state", "store", "index", "query", "plan", "exec", "worker", "pool", "retry", "metrics",
    "router", "schema", "util", "tests"
  };
  private static final String[] SUBDIRS = {"", "", "net/", "storage/", "api/", "bin/"};
  private static final String[] SIGNAL_CLASSES = {
    null, "LOOPING", "STALLED", "REGRESSION", "FLAKY", "OSCILLATING"
  };
  private static final String[] OBSERVED = {
    "LOOPING", "STALLED", "REGRESSION", "FLAKY", "OSCILLATING", "TIMEOUT", "RETRY_STORM"
  };
  private static final String[] MODELS = {
    "claude-sonnet-4",
    "gpt-4o",
    "qwen2.5-coder-32b",
    "deepseek-coder-v2",
    "llama-3.1-70b",
    "mistral-large",
    "gemini-1.5-pro",
    "codestral"
  };
  private static final String[] KB_TOPICS = {
    "async-rust",
    "error-handling",
    "lifetimes",
    "unsafe",
    "serde",
    "tokio",
    "tracing",
    "testing",
    "ffi",
    "macros",
    "traits",
    "generics",
    "iterators",
    "collections",
    "concurrency",
    "atomics",
    "io",
    "networking",
    "storage",
    "sql",
    "http",
    "grpc",
    "config",
    "logging",
    "ci"
  };
  private static final String[] REJECTS = {"schema_violation", "timeout", "low_confidence"};
  private static final String[] VERDICTS = {
    "accepted", "accepted", "accepted_with_nits", "needs_changes", "rejected", "escalated"
  };
  private static final SemanticFlag[] FLAGS = SemanticFlag.values();
  private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");

  /** What the traces are made of, in one sentence for a report. */
  static final String DESCRIPTION =
      "synthetic traces from a fixed seed: "
          + VERBS.length * OBJECTS.length
          + " task classes, "
          + CRATE_HEADS.length * CRATE_TAILS.length
          + " crates (`crates/<name>/src/<file>.rs`), "
          + SIGNAL_CLASSES.length
          + " signal classes (one absent), 1-3 ladder attempts from "
          + MODELS.length
          + " models, 0-3 kb chunks from "
          + KB_TOPICS.length * 20
          + " documents, 0-2 observer signals, 0-2 semantic flags with bug fingerprints, a short"
          + " summary and verdict; task classes, crates and documents skewed (`n * u^2`, `n * u^3`)";

  private final long seed;

  BenchPathways(long seed) {
    this.seed = seed;
  }

  /**
   * The caller's fields of draft {@code i}, as an insert sends them: Loci assigns the uid, version,
   * time, identity, vector and counters.
   */
  PathwayTrace.Builder draft(long i) {
    SplittableRandom r = random(i);
    String task = taskClass(skewed(r, VERBS.length * OBJECTS.length, 2));
    int crate = skewed(r, CRATE_HEADS.length * CRATE_TAILS.length, 3);
    String module = MODULES[r.nextInt(MODULES.length)];
    String file =
        "crates/"
            + CRATE_HEADS[crate % CRATE_HEADS.length]
            + "_"
            + CRATE_TAILS[crate / CRATE_HEADS.length]
            + "/src/"
            + SUBDIRS[r.nextInt(SUBDIRS.length)]
            + module
            + ".rs";
    String signal = SIGNAL_CLASSES[r.nextInt(SIGNAL_CLASSES.length)];

    int attempts = 1 + r.nextInt(3);
    List<LadderAttempt> ladder = new ArrayList<>(attempts);
    int firstModel = r.nextInt(MODELS.length);
    boolean accepted = r.nextInt(5) != 0;
    for (int a = 0; a < attempts; a++) {
      boolean last = a == attempts - 1;
      boolean ok = last && accepted;
      ladder.add(
          new LadderAttempt(
              a,
              MODELS[(firstModel + a * (1 + r.nextInt(MODELS.length - 1))) % MODELS.length],
              200 + r.nextInt(20_000),
              ok,
              ok ? Optional.empty() : Optional.of(REJECTS[r.nextInt(REJECTS.length)])));
    }

    int chunks = r.nextInt(4);
    List<KbChunkRef> kb = new ArrayList<>(chunks);
    for (int c = 0; c < chunks; c++) {
      int doc = skewed(r, KB_TOPICS.length * 20, 2);
      kb.add(
          new KbChunkRef(
              "kb/" + KB_TOPICS[doc % KB_TOPICS.length] + "-" + doc / KB_TOPICS.length + ".md",
              "c" + r.nextInt(40),
              0.55 + r.nextInt(4000) / 10_000.0,
              c));
    }

    int observed = r.nextInt(3);
    List<ObserverSignal> signals = new ArrayList<>(observed);
    for (int o = 0; o < observed; o++) {
      List<String> outcomes = new ArrayList<>();
      int priors = r.nextInt(4);
      for (int p = 0; p < priors; p++) {
        outcomes.add(r.nextBoolean() ? "pass" : "fail");
      }
      signals.add(new ObserverSignal(OBSERVED[r.nextInt(OBSERVED.length)], priors, outcomes));
    }

    int flagCount = r.nextInt(3);
    List<SemanticFlag> flags = new ArrayList<>(flagCount);
    List<BugFingerprint> fingerprints = new ArrayList<>(flagCount);
    for (int f = 0; f < flagCount; f++) {
      SemanticFlag flag = FLAGS[r.nextInt(FLAGS.length)];
      if (!flags.contains(flag)) {
        flags.add(flag);
        fingerprints.add(
            new BugFingerprint(
                flag,
                Long.toHexString(r.nextLong()),
                "let n = items.len() - 1; // " + module,
                1 + r.nextInt(5)));
      }
    }

    LadderAttempt settled = ladder.get(ladder.size() - 1);
    String summary =
        settled.model()
            + (accepted ? " accepted" : " gave up")
            + " at rung "
            + settled.rung()
            + " after "
            + attempts
            + (attempts == 1 ? " attempt; " : " attempts; ")
            + fingerprints.size()
            + " findings in "
            + module
            + ".rs, "
            + chunks
            + " kb chunks used";
    return PathwayTrace.builder(task, file)
        .signalClass(signal)
        .ladderAttempts(ladder)
        .kbChunks(kb)
        .observerSignals(signals)
        .semanticFlags(flags)
        .bugFingerprints(fingerprints)
        .reducerSummary(summary)
        .finalVerdict(accepted ? VERDICTS[r.nextInt(3)] : VERDICTS[3 + r.nextInt(3)]);
  }

  /**
   * Trace number {@code i} as a stored trace from an earlier run would look: draft {@code i} with a
   * UUID v7 {@code trace_uid}, a {@code created_at} 100 ms after trace {@code i - 1}'s, and replay
   * counters (most traces never replayed; the rest with a success rate that passes the probation
   * gate). Never retired.
   */
  PathwayTrace stored(long i) {
    SplittableRandom r = random(~i);
    Instant created = BASE.plusMillis(100 * i);
    long msb = (created.toEpochMilli() << 16) | 0x7000L | (r.nextLong() & 0x0FFFL);
    long lsb = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    int replays = r.nextInt(10) < 6 ? 0 : 1 + r.nextInt(6);
    int minOk = replays >= 3 ? (int) Math.ceil(replays * 0.8) : 0;
    int succeeded = minOk + r.nextInt(replays - minOk + 1);
    return draft(i)
        .traceUid(new UUID(msb, lsb).toString())
        .createdAt(created)
        .replayCount(replays)
        .replaysSucceeded(succeeded)
        .build();
  }

  /**
   * A Rust {@code state.json} holding stored traces {@code from} to {@code to} (exclusive), grouped
   * in buckets by {@code pathway_id}; each trace is also given to {@code sink}.
   */
  byte[] stateJson(long from, long to, Consumer<PathwayTrace> sink) {
    Map<String, List<String>> buckets = new LinkedHashMap<>();
    for (long i = from; i < to; i++) {
      PathwayTrace t = stored(i);
      sink.accept(t);
      buckets.computeIfAbsent(t.pathwayId(), k -> new ArrayList<>()).add(t.toJson());
    }
    ByteArrayOutputStream out =
        new ByteArrayOutputStream((int) Math.min(1 << 30, (to - from) * 1500));
    StringBuilder b = new StringBuilder(1 << 16);
    b.append("{\"pathways\":{");
    boolean firstBucket = true;
    for (Map.Entry<String, List<String>> e : buckets.entrySet()) {
      b.append(firstBucket ? "" : ",").append('"').append(e.getKey()).append("\":[");
      firstBucket = false;
      List<String> traces = e.getValue();
      for (int k = 0; k < traces.size(); k++) {
        b.append(k == 0 ? "" : ",").append(traces.get(k));
        if (b.length() > 1 << 16) {
          out.writeBytes(b.toString().getBytes(StandardCharsets.UTF_8));
          b.setLength(0);
        }
      }
      b.append(']');
    }
    b.append("}}");
    out.writeBytes(b.toString().getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private SplittableRandom random(long i) {
    return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
  }

  private static String taskClass(int n) {
    return VERBS[n % VERBS.length] + "_" + OBJECTS[n / VERBS.length];
  }

  /** A number below {@code n}, small numbers much likelier: {@code n * u^power}. */
  private static int skewed(SplittableRandom r, int n, int power) {
    return (int) (n * Math.pow(r.nextDouble(), power));
  }
}
