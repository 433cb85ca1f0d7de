package dev.loci.bench;

import dev.loci.Namespace;
import dev.loci.recall.MemoryPalace;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.SweepReport;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The palace's part of {@code loci bench recall}: what lifecycle-aware scoring and {@code
 * reinforce=true} cost a {@code hybrid} recall against plain {@code hybrid} in the same run over
 * the same store, and how fast a lifecycle sweep goes through every memory.
 *
 * <p>The three recalls are timed interleaved, query by query, in an order that rotates with the
 * query, so drift on a shared machine falls on all three alike. Lifecycle-aware means the weights
 * {@link #LIFECYCLE} (trust, recency, stability, usage each 0.1): every returned item reads its
 * lifecycle and gets four score components. {@code reinforce} is a palace recall that records a
 * useful use of every returned memory: one durable journal write per recall. The sweep is timed
 * twice: at once (nothing is due: every memory is examined, none changes) and after the clock moved
 * 200 days (every memory never used fades: one transition each, written as journal events).
 */
final class PalaceCost {
  /** The lifecycle weights the lifecycle-aware recall runs with. */
  static final ScoreWeights LIFECYCLE = ScoreWeights.DEFAULT.withLifecycle(0.1, 0.1, 0.1, 0.1);

  private PalaceCost() {}

  /**
   * The figures.
   *
   * @param plain plain {@code hybrid}
   * @param lifecycle {@code hybrid} with {@link #LIFECYCLE}
   * @param reinforce {@code hybrid} through the palace with {@code reinforce=true}
   * @param idleSweep the sweep with nothing due
   * @param dueSweep the sweep after 200 days
   */
  record Result(
      Latency plain,
      Latency lifecycle,
      Latency reinforce,
      SweepReport idleSweep,
      double idleSweepSeconds,
      SweepReport dueSweep,
      double dueSweepSeconds) {

    /** Memories examined per second by the sweep with nothing due. */
    double idleRate() {
      return idleSweep.examined() / idleSweepSeconds;
    }

    /** Memories examined per second by the sweep that fades them. */
    double dueRate() {
      return dueSweep.examined() / dueSweepSeconds;
    }

    /** The figures as a JSON object. */
    String toJson() {
      return "{\"hybrid\": "
          + plain.toJson()
          + ", \"hybrid_lifecycle\": "
          + lifecycle.toJson()
          + ", \"hybrid_reinforce\": "
          + reinforce.toJson()
          + ", \"sweep_idle\": {\"examined\": "
          + idleSweep.examined()
          + ", \"transitions\": "
          + idleSweep.transitions().size()
          + ", \"seconds\": "
          + Format.number(idleSweepSeconds)
          + "}, \"sweep_due\": {\"examined\": "
          + dueSweep.examined()
          + ", \"transitions\": "
          + dueSweep.transitions().size()
          + ", \"seconds\": "
          + Format.number(dueSweepSeconds)
          + "}}";
    }

    /** Rows of the recall benchmark's table for corpus size {@code n}. */
    void rows(StringBuilder b, String n) {
      Format.row(b, n, "`hybrid` (palace peer)", plain.detail(), "interleaved with the next two");
      Format.row(
          b,
          n,
          "`hybrid` lifecycle-aware",
          lifecycle.detail(),
          "/ plain hybrid: p50 "
              + Format.fixed(lifecycle.p50Micros() / plain.p50Micros(), 2)
              + "x, p99 "
              + Format.fixed(lifecycle.p99Micros() / plain.p99Micros(), 2)
              + "x");
      Format.row(
          b,
          n,
          "`hybrid` reinforce=true",
          reinforce.detail(),
          "/ plain hybrid: p50 "
              + Format.fixed(reinforce.p50Micros() / plain.p50Micros(), 2)
              + "x, p99 "
              + Format.fixed(reinforce.p99Micros() / plain.p99Micros(), 2)
              + "x; one durable write each");
      Format.row(
          b,
          n,
          "lifecycle sweep, nothing due",
          Format.rate(idleRate()) + " memories/s",
          Format.count(idleSweep.examined())
              + " examined in "
              + Format.fixed(idleSweepSeconds, 2)
              + " s");
      Format.row(
          b,
          n,
          "lifecycle sweep, all fading",
          Format.rate(dueRate()) + " memories/s",
          Format.count(dueSweep.transitions().size())
              + " transitions written in "
              + Format.fixed(dueSweepSeconds, 2)
              + " s");
    }
  }

  /**
   * Measures on an open store whose recall is {@code recall} and palace {@code palace}, moving
   * {@code clock} for the second sweep.
   */
  static Result measure(
      RecallMemory recall,
      MemoryPalace palace,
      BenchClock clock,
      Namespace ns,
      List<String> queries,
      int warmup,
      int k,
      PrintStream log) {
    List<Consumer<String>> runs =
        List.of(
            q -> recall.recall(ns, RecallQuery.builder(q, RecallMode.HYBRID).k(k).build()),
            q ->
                recall.recall(
                    ns, RecallQuery.builder(q, RecallMode.HYBRID).k(k).weights(LIFECYCLE).build()),
            q -> palace.recall(ns, RecallQuery.builder(q, RecallMode.HYBRID).k(k).build(), true));
    for (String q : queries.subList(0, warmup)) {
      runs.forEach(r -> r.accept(q));
    }
    List<String> timed = queries.subList(warmup, queries.size());
    long[][] nanos = new long[runs.size()][timed.size()];
    for (int i = 0; i < timed.size(); i++) {
      for (int j = 0; j < runs.size(); j++) {
        int which = (i + j) % runs.size();
        long t = System.nanoTime();
        runs.get(which).accept(timed.get(i));
        nanos[which][i] = System.nanoTime() - t;
      }
    }
    Latency plain = Latency.of(nanos[0]);
    Latency lifecycle = Latency.of(nanos[1]);
    Latency reinforce = Latency.of(nanos[2]);
    log.println("recall: hybrid " + plain.detail() + ", lifecycle-aware " + lifecycle.detail());
    log.println("recall: hybrid reinforce=true " + reinforce.detail());
    long start = System.nanoTime();
    SweepReport idle = palace.sweep(ns);
    double idleSeconds = (System.nanoTime() - start) / 1e9;
    clock.advance(Duration.ofDays(200));
    start = System.nanoTime();
    SweepReport due = palace.sweep(ns);
    double dueSeconds = (System.nanoTime() - start) / 1e9;
    log.println(
        "recall: sweeps of "
            + Format.count(idle.examined())
            + " memories in "
            + Format.fixed(idleSeconds, 2)
            + " s (nothing due) and "
            + Format.fixed(dueSeconds, 2)
            + " s ("
            + Format.count(due.transitions().size())
            + " fading)");
    return new Result(plain, lifecycle, reinforce, idle, idleSeconds, due, dueSeconds);
  }
}
