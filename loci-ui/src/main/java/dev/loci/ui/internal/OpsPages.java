package dev.loci.ui.internal;

import dev.loci.Damage;
import dev.loci.Loci;
import dev.loci.VerifyReport;
import dev.loci.server.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Operations, for admins: health (and why writes are refused, if they are), the journal's size and
 * segments, snapshot age, the derived indexes, damage found on open, {@code verify} on demand, and
 * charts of the write rate and recall latency.
 */
public final class OpsPages {
  /**
   * One directory's files.
   *
   * @param name the directory
   * @param files how many files
   * @param bytes their total size
   */
  public record Dir(String name, long files, long bytes) {}

  /**
   * The page.
   *
   * @param unavailable why writes are refused, when they are
   * @param lastSeq the last journal batch applied
   * @param lag batches of a shared journal not yet applied here
   * @param journal the journal directory, empty for a shared (PostgreSQL) journal
   * @param snapshots how many snapshots
   * @param newestSnapshot when the newest was written
   * @param indexes the derived index directories
   * @param damage damage found when the data directory was opened
   * @param verify the verify report, when asked for
   * @param writeChart the write-rate chart configuration
   * @param latencyChart the recall latency chart configuration
   * @param recallRequests recall requests counted in the histogram
   */
  public record View(
      Optional<String> unavailable,
      long lastSeq,
      long lag,
      Optional<Dir> journal,
      long snapshots,
      Optional<Instant> newestSnapshot,
      List<Dir> indexes,
      List<Damage> damage,
      Optional<VerifyReport> verify,
      String writeChart,
      String latencyChart,
      long recallRequests) {
    /** The newest snapshot's age, in words. */
    public String snapshotAge() {
      return newestSnapshot.map(Html::ago).orElse("none");
    }
  }

  private final Web web;
  private final Loci loci;
  private final JournalActivity activity;

  /** The page over {@code loci}, with its journal's recent {@code activity}. */
  public OpsPages(Web web, Loci loci, JournalActivity activity) {
    this.web = web;
    this.loci = loci;
    this.activity = activity;
  }

  /** Registers {@code /ui/ops}. */
  public void register() {
    web.get("/ui/ops", Role.ADMIN, this::view);
  }

  private void view(Req req) throws IOException {
    Path data = loci.dataDir();
    Path journalDir = data.resolve("journal");
    List<Path> segments = files(journalDir, ".jsonl");
    Optional<Dir> journal =
        Files.isDirectory(journalDir) ? Optional.of(dir("journal", segments)) : Optional.empty();
    List<Path> snaps = files(data.resolve("snapshots"), "");
    Optional<Instant> newest = Optional.empty();
    for (Path s : snaps) {
      Instant t = Files.getLastModifiedTime(s).toInstant();
      newest = newest.isEmpty() || t.isAfter(newest.get()) ? Optional.of(t) : newest;
    }
    List<Dir> indexes = new ArrayList<>();
    Path index = data.resolve("index");
    if (Files.isDirectory(index)) {
      try (Stream<Path> dirs = Files.list(index)) {
        for (Path d : dirs.sorted().toList()) {
          indexes.add(dir(d.getFileName().toString(), tree(d)));
        }
      }
    }
    Optional<VerifyReport> verify =
        req.query("verify").isPresent() && journal.isPresent()
            ? Optional.of(Loci.verify(data))
            : Optional.empty();
    Map<String, Long> latency = OpsCharts.recallLatency(web.access().metrics());
    req.page(
        "ops.jte",
        req.chrome("Operations", "ops", Optional.empty()),
        new View(
            loci.unavailable(),
            loci.lastSeq(),
            Math.max(0, loci.sharedHead().orElse(0) - loci.lastSeq()),
            journal,
            snaps.size(),
            newest,
            indexes,
            loci.openDamage(),
            verify,
            OpsCharts.writeChart(activity.now().perMinute()),
            OpsCharts.latencyChart(latency),
            latency.values().stream().mapToLong(Long::longValue).sum()));
  }

  private static List<Path> files(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix))
          .filter(Files::isRegularFile)
          .sorted()
          .toList();
    }
  }

  private static List<Path> tree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  private static Dir dir(String name, List<Path> files) {
    long bytes = 0;
    for (Path f : files) {
      try {
        bytes += Files.size(f);
      } catch (IOException e) {
        // deleted meanwhile (compaction, an index merge): not counted
      }
    }
    return new Dir(name, files.size(), bytes);
  }
}
