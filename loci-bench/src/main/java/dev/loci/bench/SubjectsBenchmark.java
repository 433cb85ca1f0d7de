package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.subjects.AuditVerification;
import dev.loci.subjects.ErasureReport;
import dev.loci.subjects.Subjects;
import dev.loci.subjects.internal.SubjectLayer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The subjects benchmark ({@code loci bench subjects}).
 *
 * <ul>
 *   <li>What subject indexing and the HMAC-chained audit log cost on the write path: durable trace
 *       adds per second, 4 writers, each naming one of 1,000 subjects, with the subject layer and
 *       without it (the trace store alone, the same bytes written), in the same run, alternating in
 *       three rounds.
 *   <li>Audit verification rate: entries per second of {@code verifyAudit} over every log.
 *   <li>Erasure time of one subject with {@code subjectRecords} records in a store of {@code
 *       storeRecords} records, spread evenly through it (every journal segment holds some: the
 *       worst case for a rewrite), and the time to reopen afterwards.
 * </ul>
 *
 * <p>Run: {@code loci bench subjects --store 1000000 --records 1000}.
 */
public final class SubjectsBenchmark {
  private static final Namespace NS = Namespace.of("bench.subjects");
  private static final int SUBJECTS = 1_000;
  private static final String TARGET = "subject-target";
  private static final int ROUNDS = 3;

  private SubjectsBenchmark() {}

  /**
   * What to run.
   *
   * @param workDir where the stores are made
   * @param storeRecords records in the erasure store
   * @param subjectRecords of them, records naming the erased subject
   * @param seconds per write-throughput measurement
   */
  public record Options(Path workDir, int storeRecords, int subjectRecords, double seconds) {
    /** Checks ranges. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      if (subjectRecords < 1 || storeRecords < subjectRecords) {
        throw new IllegalArgumentException(
            "records must be 1 or more and store at least records, found "
                + subjectRecords
                + " of "
                + storeRecords);
      }
      if (!(seconds > 0)) {
        throw new IllegalArgumentException("seconds must be positive");
      }
    }
  }

  /** The figures. */
  public record Report(
      Machine machine,
      Throughput without,
      Throughput with,
      double auditWriteSeconds,
      double checkpointSeconds,
      long auditEntries,
      double verifySeconds,
      int storeRecords,
      int subjectRecords,
      double loadSeconds,
      ErasureReport erasure,
      double reopenSeconds) {
    /** Write throughput with subjects as a share of without. */
    public double ratio() {
      return with.perSecond() / without.perSecond();
    }

    /** Audit entries verified per second. */
    public double verifyRate() {
      return auditEntries / verifySeconds;
    }

    /** The report as Markdown, with the goals of issue 13. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown()).append('\n');
      b.append("| durable trace adds, 4 writers | per second | vs without |\n|---|---:|---:|\n");
      Format.row(b, "trace store alone", Format.rate(without.perSecond()), "1.00x");
      Format.row(
          b,
          "with the subject index and audit log",
          Format.rate(with.perSecond()),
          Format.fixed(ratio(), 2) + "x");
      b.append('\n');
      b.append("| measure | figure | goal |\n|---|---:|---|\n");
      Format.row(
          b,
          "write-path cost of subjects",
          Format.fixed((1 - ratio()) * 100, 1) + " %",
          (1 - ratio() < 0.15 ? "met" : "missed") + " (under 15 %)");
      Format.row(
          b,
          "charged to the writes with subjects",
          "audit writes "
              + Format.fixed(auditWriteSeconds, 2)
              + " s, checkpoint "
              + Format.fixed(checkpointSeconds, 2)
              + " s",
          "");
      Format.row(
          b,
          "audit verify",
          Format.rate(verifyRate()) + " entries/s (" + Format.count(auditEntries) + ")",
          "");
      Format.row(
          b,
          "erase " + Format.count(subjectRecords) + " records in " + Format.count(storeRecords),
          Format.fixed(erasure.took().toMillis() / 1000.0, 2)
              + " s, "
              + Format.count(erasure.batchesRewritten())
              + " batches rewritten",
          (erasure.took().toMillis() < 10_000 ? "met" : "missed") + " (under 10 s)");
      Format.row(b, "load the store (durability none)", Format.fixed(loadSeconds, 1) + " s", "");
      Format.row(b, "reopen after the erasure", Format.fixed(reopenSeconds, 2) + " s", "");
      return b.toString();
    }

    /** The report as JSON. */
    public String toJson() {
      return "{\"machine\": "
          + machine.toJson()
          + ", \"without\": "
          + without.toJson()
          + ", \"with\": "
          + with.toJson()
          + ", \"ratio\": "
          + Format.number(ratio())
          + ", \"audit_write_seconds\": "
          + Format.number(auditWriteSeconds)
          + ", \"checkpoint_seconds\": "
          + Format.number(checkpointSeconds)
          + ", \"audit_entries\": "
          + auditEntries
          + ", \"verify_seconds\": "
          + Format.number(verifySeconds)
          + ", \"store_records\": "
          + storeRecords
          + ", \"subject_records\": "
          + subjectRecords
          + ", \"load_seconds\": "
          + Format.number(loadSeconds)
          + ", \"erase_seconds\": "
          + Format.number(erasure.took().toMillis() / 1000.0)
          + ", \"batches_rewritten\": "
          + erasure.batchesRewritten()
          + ", \"reopen_seconds\": "
          + Format.number(reopenSeconds)
          + "}\n";
    }
  }

  private static String content(long i, String subject) {
    return "{\"subject_ids\":[\"" + subject + "\"],\"note\":\"record " + i + " about the pump\"}";
  }

  /** Runs every measurement, with progress on {@code progress}. */
  public static Report run(Options options, PrintStream progress) {
    Duration measure = Duration.ofMillis(Math.round(options.seconds() * 1000));
    Duration warmup = Duration.ofMillis(Math.max(200, measure.toMillis() / 5));
    Throughput without;
    Throughput with;
    double[] charges = new double[2]; // seconds charged: audit writes, the checkpoint
    long entries;
    double verifySeconds;
    progress.println("durable writes with and without subjects, 4 writers, 3 rounds each ...");
    try (ScratchDir offDir = ScratchDir.create(options.workDir(), "subjects-off");
        ScratchDir onDir = ScratchDir.create(options.workDir(), "subjects-on");
        Loci off =
            Loci.builder().dataDir(offDir.path()).discoverLayers(false).snapshotAfter(0).open();
        Loci on = open(onDir.path(), Durability.always())) {
      // alternate the two, so that a drift in the disk's fsync time hits both alike
      Duration round = measure.dividedBy(ROUNDS);
      Throughput[] sums = new Throughput[2];
      for (int k = 0; k < ROUNDS; k++) {
        sums[0] = plus(sums[0], throughput(writer(off), warmup, round));
        Throughput t = throughput(writer(on), warmup, round);
        Throughput written = withAuditWritten(on, t);
        charges[0] += written.seconds() - t.seconds();
        sums[1] = plus(sums[1], written);
      }
      without = sums[0];
      // the audit writer brings the subject files up to date from its spool (and forces them) each
      // time the spool passes 64 MiB: charge one such checkpoint, over every round's entries
      with = charged(sums[1], () -> on.layer(SubjectLayer.class).checkpointAudit());
      charges[1] = with.seconds() - sums[1].seconds();
      progress.println("audit verify ...");
      long t0 = System.nanoTime();
      AuditVerification v = Subjects.of(on).verifyAudit(Optional.empty());
      verifySeconds = (System.nanoTime() - t0) / 1e9;
      if (!v.ok()) {
        throw new IllegalStateException("audit verify failed: " + v.problems().get(0));
      }
      entries = v.entries();
    }
    progress.println(
        "erasure: loading " + options.storeRecords() + " records, durability none ...");
    try (ScratchDir dir = ScratchDir.create(options.workDir(), "subjects-erase")) {
      int every = options.storeRecords() / options.subjectRecords();
      long l0 = System.nanoTime();
      try (Loci loci = open(dir.path(), Durability.none())) {
        for (int i = 0; i < options.storeRecords(); i++) {
          String subject =
              i % every == 0 && i / every < options.subjectRecords() ? TARGET : "s" + i % SUBJECTS;
          loci.traces().add(NS, content(i, subject), List.of());
        }
        loci.snapshot();
      }
      double loadSeconds = (System.nanoTime() - l0) / 1e9;
      ErasureReport erased;
      try (Loci loci = open(dir.path(), Durability.always())) {
        progress.println("erasure: erasing " + options.subjectRecords() + " records ...");
        erased =
            Subjects.of(loci)
                .erase(
                    new LegalCapability("bench"),
                    NamespaceScope.exactly(NS),
                    NS,
                    TARGET,
                    "benchmark");
        if (erased.records() != options.subjectRecords()) {
          throw new IllegalStateException(
              "erased " + erased.records() + " records, expected " + options.subjectRecords());
        }
      }
      long r0 = System.nanoTime();
      try (Loci loci = open(dir.path(), Durability.always())) {
        if (!Subjects.of(loci).manifest(TARGET).records().isEmpty()) {
          throw new IllegalStateException("the subject still has records after erasure");
        }
      }
      double reopenSeconds = (System.nanoTime() - r0) / 1e9;
      return new Report(
          Machine.describe(options.workDir()),
          without,
          with,
          charges[0],
          charges[1],
          entries,
          verifySeconds,
          options.storeRecords(),
          options.subjectRecords(),
          loadSeconds,
          erased,
          reopenSeconds);
    }
  }

  private static Loci open(Path dir, Durability durability) {
    return Loci.builder()
        .dataDir(dir)
        .discoverLayers(false)
        .layer(SubjectLayer::new)
        .durability(durability)
        .snapshotAfter(0)
        .open();
  }

  private static ThroughputRun.Writer writer(Loci loci) {
    return i -> loci.traces().add(NS, content(i, "s" + i % SUBJECTS), List.of());
  }

  /**
   * {@code t} with the time to write the audit entries its writes queued added to its duration: the
   * audit log is written by a background thread, so without this its writes would land in the next
   * round, the one without subjects. (The files are forced at snapshots, as in a server.)
   */
  private static Throughput withAuditWritten(Loci on, Throughput t) {
    return charged(t, () -> on.layer(SubjectLayer.class).writeAudit());
  }

  /** {@code t} with the time and process CPU of {@code work} added. */
  private static Throughput charged(Throughput t, Runnable work) {
    long t0 = System.nanoTime();
    long c0 = ThroughputRun.processCpuNanos();
    work.run();
    double cpu = (ThroughputRun.processCpuNanos() - c0) / 1e9;
    return new Throughput(
        t.operations(),
        t.seconds() + (System.nanoTime() - t0) / 1e9,
        t.processCpuSeconds() < 0 || c0 < 0 ? t.processCpuSeconds() : t.processCpuSeconds() + cpu);
  }

  private static Throughput plus(Throughput a, Throughput b) {
    return a == null
        ? b
        : new Throughput(
            a.operations() + b.operations(),
            a.seconds() + b.seconds(),
            a.processCpuSeconds() < 0 || b.processCpuSeconds() < 0
                ? -1
                : a.processCpuSeconds() + b.processCpuSeconds());
  }

  private static Throughput throughput(
      ThroughputRun.Writer one, Duration warmup, Duration measure) {
    ThroughputRun.Result r =
        ThroughputRun.run("subjects", List.of(one, one, one, one), warmup, measure);
    return new Throughput(r.measured(), r.seconds(), r.cpuSeconds());
  }
}
