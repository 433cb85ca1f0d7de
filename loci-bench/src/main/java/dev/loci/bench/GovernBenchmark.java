package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.TraceQuery;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Reviewer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * The governed-memory benchmark ({@code loci bench govern}).
 *
 * <ul>
 *   <li>Durable proposals per second (a candidate each, with the same-fact check) and durable
 *       active writes per second with a slot (conflict detection at write time), against durable
 *       plain trace adds of the same texts, 4 writers each, in the same run.
 *   <li>Interaction capture with rule-based extraction per second (the interaction and its memory
 *       and entity candidates, one durable batch each), against durable plain trace adds of the
 *       same interaction texts, 4 writers each, in the same run.
 *   <li>Context-pack latency (p50, p99) at each store size with a 4,000-token budget, against a
 *       plain trace search for one of the prompt's words over the same texts (the store without
 *       governance: no trust order, no budget, no status).
 * </ul>
 *
 * <p>Run: {@code loci bench govern --sizes 10000,100000}.
 */
public final class GovernBenchmark {
  private static final Namespace NS = Namespace.of("bench.govern");
  private static final String[] WORDS = {
    "pump", "valve", "rated", "pressure", "contract", "delivery", "penalty", "supplier", "buyer",
    "prefers", "coffee", "deadline", "release", "server", "memory", "budget", "review", "alice",
    "bob", "engine", "turbine", "cooling", "shipping", "invoice"
  };

  private GovernBenchmark() {}

  /**
   * What to run.
   *
   * @param workDir where the stores are made
   * @param sizes governed records per store for the context-pack latency
   * @param queries context packs timed per size
   * @param seconds per write-throughput measurement
   */
  public record Options(Path workDir, List<Integer> sizes, int queries, double seconds) {
    /** Checks ranges and copies the sizes. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      sizes = List.copyOf(sizes);
      if (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 10) || queries < 1) {
        throw new IllegalArgumentException("sizes must be 10 or more, queries 1 or more");
      }
      if (!(seconds > 0)) {
        throw new IllegalArgumentException("seconds must be positive");
      }
    }
  }

  /** One size's context-pack latency, governed and plain, in microseconds. */
  public record Latency(
      int records, double packP50, double packP99, double plainP50, double plainP99) {}

  /** The figures. */
  public record Report(
      Machine machine,
      Throughput proposals,
      Throughput activeWrites,
      Throughput plainAdds,
      Throughput captures,
      Throughput plainCaptures,
      List<Latency> latencies) {
    /** The report as Markdown. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown()).append('\n');
      b.append(
          "| durable writes, 4 writers | per second | vs plain trace adds |\n|---|---:|---:|\n");
      Format.row(b, "plain trace add", Format.rate(plainAdds.perSecond()), "1.00x");
      Format.row(
          b,
          "governed proposal (candidate)",
          Format.rate(proposals.perSecond()),
          Format.fixed(proposals.perSecond() / plainAdds.perSecond(), 2) + "x");
      Format.row(
          b,
          "governed active write with a slot (conflict check)",
          Format.rate(activeWrites.perSecond()),
          Format.fixed(activeWrites.perSecond() / plainAdds.perSecond(), 2) + "x");
      b.append("\n| interactions, 4 writers | per second | vs plain trace adds |\n");
      b.append("|---|---:|---:|\n");
      Format.row(b, "plain trace add of the text", Format.rate(plainCaptures.perSecond()), "1.00x");
      Format.row(
          b,
          "capture + extraction (memory and entity candidates)",
          Format.rate(captures.perSecond()),
          Format.fixed(captures.perSecond() / plainCaptures.perSecond(), 2) + "x");
      b.append("\n| records | context pack p50 | p99 | plain search p50 | p99 |\n");
      b.append("|---:|---:|---:|---:|---:|\n");
      for (Latency l : latencies) {
        Format.row(
            b,
            Format.count(l.records()),
            Format.fixed(l.packP50() / 1000, 2) + " ms",
            Format.fixed(l.packP99() / 1000, 2) + " ms",
            Format.fixed(l.plainP50() / 1000, 2) + " ms",
            Format.fixed(l.plainP99() / 1000, 2) + " ms");
      }
      return b.toString();
    }

    /** The report as JSON. */
    public String toJson() {
      StringBuilder b = new StringBuilder("{\"machine\": ").append(machine.toJson());
      b.append(", \"proposals\": ").append(proposals.toJson());
      b.append(", \"active_writes\": ").append(activeWrites.toJson());
      b.append(", \"plain_adds\": ").append(plainAdds.toJson());
      b.append(", \"captures\": ").append(captures.toJson());
      b.append(", \"plain_captures\": ").append(plainCaptures.toJson());
      b.append(", \"context_us\": [");
      for (int i = 0; i < latencies.size(); i++) {
        Latency l = latencies.get(i);
        b.append(i == 0 ? "" : ", ")
            .append("{\"records\": ")
            .append(l.records())
            .append(", \"pack_p50\": ")
            .append(Format.number(l.packP50()))
            .append(", \"pack_p99\": ")
            .append(Format.number(l.packP99()))
            .append(", \"plain_p50\": ")
            .append(Format.number(l.plainP50()))
            .append(", \"plain_p99\": ")
            .append(Format.number(l.plainP99()))
            .append('}');
      }
      return b.append("]}\n").toString();
    }
  }

  /** Runs every measurement, with progress on {@code progress}. */
  public static Report run(Options options, PrintStream progress) {
    Duration measure = Duration.ofMillis(Math.round(options.seconds() * 1000));
    Duration warmup = Duration.ofMillis(Math.max(200, measure.toMillis() / 5));
    Reviewer reviewer = new Reviewer("bench");
    Throughput proposals;
    Throughput active;
    Throughput plain;
    Throughput captures;
    Throughput plainCaptures;
    try (ScratchDir dir = ScratchDir.create(options.workDir(), "govern");
        Loci loci = Loci.builder().dataDir(dir.path()).snapshotAfter(0).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      progress.println("durable writes, 4 writers each ...");
      plain =
          throughput(
              i -> loci.traces().add(NS, "{\"t\":\"" + text(i) + "\"}", List.of()),
              warmup,
              measure);
      proposals =
          throughput(
              i -> gov.propose(NS, MemoryDraft.of(MemoryType.KNOWLEDGE, "p " + text(i), "bench")),
              warmup,
              measure);
      active =
          throughput(
              i ->
                  gov.add(
                      NS,
                      MemoryDraft.of(MemoryType.PROJECT, "a " + text(i), "bench")
                          .withSlot("s" + i % 500),
                      reviewer),
              warmup,
              measure);
      progress.println("interaction capture with extraction, 4 writers each ...");
      plainCaptures =
          throughput(
              i ->
                  loci.traces()
                      .add(
                          NS,
                          dev.loci.internal.Json.write(
                              dev.loci.internal.Json.object().put("t", interaction(i))),
                          List.of()),
              warmup,
              measure);
      captures =
          throughput(
              i ->
                  gov.capture(
                      NS,
                      interaction(i),
                      "bench",
                      java.util.Optional.empty(),
                      dev.loci.govern.spi.ExtractionTarget.BOTH),
              warmup,
              measure);
    }
    List<Latency> latencies = new ArrayList<>();
    for (int size : options.sizes()) {
      progress.println("context packs at " + size + " records ...");
      try (ScratchDir dir = ScratchDir.create(options.workDir(), "govern-ctx");
          Loci loci =
              Loci.builder()
                  .dataDir(dir.path())
                  .durability(Durability.none())
                  .snapshotAfter(0)
                  .open()) {
        GovernedMemory gov = GovernedMemory.of(loci);
        for (int s = 0; s < 20; s++) {
          gov.setState(NS, "key" + s, "value " + text(s), reviewer);
        }
        for (int i = 0; i < size; i++) {
          MemoryType type = MemoryType.values()[i % MemoryType.values().length];
          if (i % 3 == 0) {
            gov.add(NS, MemoryDraft.of(type, text(i), "bench"), reviewer);
          } else {
            gov.propose(NS, MemoryDraft.of(type, text(i), "bench"));
          }
          loci.traces().add(NS, "{\"t\":\"" + text(i) + "\"}", List.of());
        }
        Random r = new Random(7);
        long[] pack = new long[options.queries()];
        long[] search = new long[options.queries()];
        for (int q = -Math.min(50, options.queries()); q < options.queries(); q++) {
          String prompt =
              "What about the "
                  + WORDS[r.nextInt(WORDS.length)]
                  + " and its "
                  + WORDS[r.nextInt(WORDS.length)]
                  + "?";
          long t0 = System.nanoTime();
          gov.context(NS, prompt, 4000);
          long t1 = System.nanoTime();
          loci.traces()
              .search(
                  TraceQuery.in(NS)
                      .contentContains(WORDS[r.nextInt(WORDS.length)])
                      .limit(50)
                      .build());
          long t2 = System.nanoTime();
          if (q >= 0) {
            pack[q] = t1 - t0;
            search[q] = t2 - t1;
          }
        }
        latencies.add(
            new Latency(
                size,
                percentile(pack, 0.50) / 1e3,
                percentile(pack, 0.99) / 1e3,
                percentile(search, 0.50) / 1e3,
                percentile(search, 0.99) / 1e3));
      }
    }
    return new Report(
        Machine.describe(options.workDir()),
        proposals,
        active,
        plain,
        captures,
        plainCaptures,
        latencies);
  }

  private static Throughput throughput(
      ThroughputRun.Writer one, Duration warmup, Duration measure) {
    List<ThroughputRun.Writer> writers = List.of(one, one, one, one);
    ThroughputRun.Result r = ThroughputRun.run("govern", writers, warmup, measure);
    return new Throughput(r.measured(), r.seconds(), r.cpuSeconds());
  }

  private static String text(long i) {
    Random r = new Random(i);
    StringBuilder b = new StringBuilder("item " + i);
    for (int k = 0; k < 8; k++) {
      b.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
    }
    return b.toString();
  }

  /**
   * A five-sentence interaction of the kind extraction reads: a preference, a decision, a
   * constraint, a parameter and small talk, with words varied by {@code i}.
   */
  static String interaction(long i) {
    Random r = new Random(i);
    String a = WORDS[r.nextInt(WORDS.length)];
    String b = WORDS[r.nextInt(WORDS.length)];
    return "I prefer short answers about the "
        + a
        + ". We decided to move the "
        + b
        + " review to Friday "
        + i
        + ". The "
        + a
        + " must not exceed "
        + (i % 90 + 10)
        + " dB. "
        + b
        + " pressure "
        + i
        + " = "
        + (i % 40 + 1)
        + " bar\nThanks, that is all for "
        + a
        + " today.";
  }

  private static double percentile(long[] values, double p) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.floor(p * (sorted.length - 1))];
  }
}
