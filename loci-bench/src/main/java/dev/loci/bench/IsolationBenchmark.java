package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.RedactionPolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write-isolation benchmark ({@code loci bench isolation}): does a small write wait on another
 * request's text processing? One thread adds small traces in one namespace, durably, one after
 * another, and records each add's latency; in the same run, alone and then with a second thread
 * inserting pathway traces in another namespace whose {@code final_verdict} is {@code bigChars}
 * characters dense with e-mail addresses and phone numbers, which the default redaction policy
 * rewrites. Alternates alone / beside for {@code rounds} rounds. Also times the redaction of one
 * such text alone.
 *
 * <p>Run: {@code loci bench isolation --seconds 5 --big-chars 1000000}.
 */
public final class IsolationBenchmark {
  private static final Namespace SMALL = Namespace.of("bench.small");
  private static final Namespace BIG = Namespace.of("bench.big");

  private IsolationBenchmark() {}

  /**
   * What to run.
   *
   * @param workDir where the store is made
   * @param seconds per phase
   * @param bigChars characters of each large redacted field
   * @param rounds alone/beside pairs
   */
  public record Options(Path workDir, double seconds, int bigChars, int rounds) {
    /** Checks ranges. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      if (!(seconds > 0) || bigChars < 1 || rounds < 1) {
        throw new IllegalArgumentException("seconds, big-chars and rounds must be positive");
      }
    }
  }

  /** Latencies of the small adds of one kind of phase, in microseconds, sorted. */
  public record Phase(String name, long[] micros, long bigWrites) {
    long percentile(double p) {
      if (micros.length == 0) {
        return 0;
      }
      return micros[(int) Math.min(micros.length - 1, Math.ceil(p * micros.length) - 1)];
    }
  }

  /** The figures. */
  public record Report(
      Machine machine, Options options, Phase alone, Phase beside, double redactMillis) {
    /** p99 beside over p99 alone. */
    public double p99Ratio() {
      return (double) beside.percentile(0.99) / Math.max(1, alone.percentile(0.99));
    }

    /** The Markdown table. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown());
      b.append("\nSmall durable trace adds (one thread) alone and beside pathway inserts of ")
          .append(options.bigChars())
          .append("-character redacted fields in another namespace; ")
          .append(options.rounds())
          .append(" x ")
          .append(options.seconds())
          .append(" s per phase.\n\n");
      Format.row(b, "phase", "small adds", "p50 µs", "p99 µs", "max µs", "large writes");
      Format.row(b, "---", "---:", "---:", "---:", "---:", "---:");
      for (Phase p : List.of(alone, beside)) {
        Format.row(
            b,
            p.name(),
            Integer.toString(p.micros().length),
            Long.toString(p.percentile(0.5)),
            Long.toString(p.percentile(0.99)),
            Long.toString(p.percentile(1.0)),
            Long.toString(p.bigWrites()));
      }
      b.append("\np99 beside / p99 alone: ")
          .append(Format.fixed(p99Ratio(), 2))
          .append("\nredaction of one ")
          .append(options.bigChars())
          .append("-character field alone: ")
          .append(Format.fixed(redactMillis, 1))
          .append(" ms, the median of 5 after warm-up (goal: 1 MB under 100 ms)\n");
      return b.toString();
    }

    /** The JSON report. */
    public String toJson() {
      return String.format(
          Locale.ROOT,
          "{\"machine\":%s,\"big_chars\":%d,\"seconds\":%s,\"rounds\":%d,"
              + "\"alone\":{\"adds\":%d,\"p50_us\":%d,\"p99_us\":%d,\"max_us\":%d},"
              + "\"beside\":{\"adds\":%d,\"p50_us\":%d,\"p99_us\":%d,\"max_us\":%d,"
              + "\"large_writes\":%d},\"p99_ratio\":%.3f,\"redact_ms\":%.3f}\n",
          machine.toJson(),
          options.bigChars(),
          options.seconds(),
          options.rounds(),
          alone.micros().length,
          alone.percentile(0.5),
          alone.percentile(0.99),
          alone.percentile(1.0),
          beside.micros().length,
          beside.percentile(0.5),
          beside.percentile(0.99),
          beside.percentile(1.0),
          beside.bigWrites(),
          p99Ratio(),
          redactMillis);
    }
  }

  /** Runs the benchmark, progress on {@code err}. */
  public static Report run(Options o, PrintStream err) {
    String big = hostileText(o.bigChars());
    double redactMillis = redactMillis(big, err);
    List<long[]> alone = new ArrayList<>();
    List<long[]> beside = new ArrayList<>();
    long bigWrites = 0;
    try (ScratchDir dir = ScratchDir.create(o.workDir(), "isolation-");
        Loci loci =
            Loci.builder()
                .dataDir(dir.path())
                .durability(Durability.always())
                .snapshotAfter(0)
                .open()) {
      PathwayMemory pathways = PathwayMemory.of(loci);
      smallAdds(loci, 0.5); // warm-up
      for (int r = 0; r < o.rounds(); r++) {
        err.println("isolation: round " + (r + 1) + " alone ...");
        alone.add(smallAdds(loci, o.seconds()));
        err.println("isolation: round " + (r + 1) + " beside large redacted writes ...");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        Thread writer =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    pathways.insert(
                        BIG, PathwayTrace.builder("bench_isolation", "big.rs").finalVerdict(big));
                    written.incrementAndGet();
                  }
                },
                "isolation-big-writer");
        writer.start();
        beside.add(smallAdds(loci, o.seconds()));
        stop.set(true);
        try {
          writer.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        bigWrites += written.get();
      }
    }
    return new Report(
        Machine.describe(o.workDir()),
        o,
        new Phase("alone", merge(alone), 0),
        new Phase("beside large redacted writes", merge(beside), bigWrites),
        redactMillis);
  }

  /** The median of 5 timed redactions of {@code text}, after 3 untimed ones to warm up. */
  private static double redactMillis(String text, PrintStream err) {
    err.println("isolation: timing the redaction of one large field ...");
    double[] ms = new double[5];
    for (int i = -3; i < ms.length; i++) {
      long t0 = System.nanoTime();
      RedactionPolicy.defaults().redact(text);
      if (i >= 0) {
        ms[i] = (System.nanoTime() - t0) / 1e6;
      }
    }
    Arrays.sort(ms);
    return ms[ms.length / 2];
  }

  /** Text of {@code chars} characters with an e-mail address and a phone number every 64. */
  static String hostileText(int chars) {
    StringBuilder b = new StringBuilder(chars + 64);
    for (int i = 0; b.length() < chars; i++) {
      b.append("reach ana").append(i).append("@example.com or +1 555 010 ").append(i % 10_000);
      b.append(" now; ");
    }
    b.setLength(chars);
    return b.toString();
  }

  private static long[] smallAdds(Loci loci, double seconds) {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long[] micros = new long[1024];
    int n = 0;
    while (System.nanoTime() < end) {
      long t = System.nanoTime();
      loci.traces().add(SMALL, "{\"n\":" + n + "}", List.of());
      if (n == micros.length) {
        micros = Arrays.copyOf(micros, n * 2);
      }
      micros[n++] = (System.nanoTime() - t) / 1_000;
    }
    return Arrays.copyOf(micros, n);
  }

  private static long[] merge(List<long[]> runs) {
    long[] all = runs.stream().flatMapToLong(Arrays::stream).toArray();
    Arrays.sort(all);
    return all;
  }
}
