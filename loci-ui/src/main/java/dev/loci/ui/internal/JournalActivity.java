package dev.loci.ui.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Recent write activity read from the tail of the file journal (each line is one committed batch
 * with its time and namespace): batches per minute over the last hour, and per namespace the
 * batches of the last hour and the time of the last write. Reads at most {@value #TAIL_BYTES} bytes
 * of the newest segments, and at most once per {@value #FRESH_MILLIS} ms (pages share the result).
 * A server over a shared PostgreSQL journal has no file journal: then every figure is empty.
 * Thread-safe.
 */
public final class JournalActivity {
  static final int TAIL_BYTES = 4 << 20;
  static final long FRESH_MILLIS = 5_000;

  /**
   * One namespace's recent writes.
   *
   * @param lastHour batches in the last hour
   * @param last when the last batch in the tail was written
   */
  public record Recent(int lastHour, Instant last) {}

  /**
   * What the tail says.
   *
   * @param perMinute batches per minute over the hour before {@code at}, oldest first
   * @param byNamespace recent writes by namespace (of the batches read)
   * @param at when it was read
   */
  public record Snapshot(
      TreeMap<Instant, Integer> perMinute, Map<String, Recent> byNamespace, Instant at) {}

  private final Path journalDir;
  private volatile Snapshot cached;
  private volatile long cachedAtNanos;

  /** The activity of the journal in {@code journalDir}. */
  public JournalActivity(Path journalDir) {
    this.journalDir = journalDir;
  }

  /** The activity now, read again if the last reading is older than {@value #FRESH_MILLIS} ms. */
  public Snapshot now() {
    Snapshot s = cached;
    long t = System.nanoTime();
    if (s == null || (t - cachedAtNanos) / 1_000_000 > FRESH_MILLIS) {
      s = read(segments(journalDir), Instant.now());
      cached = s;
      cachedAtNanos = t;
    }
    return s;
  }

  /** The segments of {@code dir}, oldest first; empty if there is no file journal. */
  static List<Path> segments(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  /** Reads the tail of {@code segments} as of {@code now}. */
  static Snapshot read(List<Path> segments, Instant now) {
    Instant start = now.truncatedTo(ChronoUnit.MINUTES).minus(59, ChronoUnit.MINUTES);
    TreeMap<Instant, Integer> perMinute = new TreeMap<>();
    for (int i = 0; i < 60; i++) {
      perMinute.put(start.plus(i, ChronoUnit.MINUTES), 0);
    }
    Map<String, Recent> byNs = new HashMap<>();
    long budget = TAIL_BYTES;
    for (int s = segments.size() - 1; s >= 0 && budget > 0; s--) {
      try (RandomAccessFile f = new RandomAccessFile(segments.get(s).toFile(), "r")) {
        long from = Math.max(0, f.length() - budget);
        byte[] buf = new byte[(int) (f.length() - from)];
        f.seek(from);
        f.readFully(buf);
        budget -= buf.length;
        boolean older = false;
        for (String line : new String(buf, StandardCharsets.UTF_8).split("\n")) {
          Optional<Instant> ts = field(line, "\"ts\":\"").flatMap(JournalActivity::instant);
          if (ts.isEmpty()) {
            continue; // a partial first line of the window, or a torn tail
          }
          Instant minute = ts.get().truncatedTo(ChronoUnit.MINUTES);
          boolean inHour = !minute.isBefore(start);
          older |= !inHour;
          if (inHour) {
            perMinute.computeIfPresent(minute, (k, v) -> v + 1);
          }
          Optional<String> ns = field(line, "\"ns\":\"");
          if (ns.isPresent()) {
            Recent r = byNs.get(ns.get());
            int hour = (r == null ? 0 : r.lastHour()) + (inHour ? 1 : 0);
            Instant last = r == null || ts.get().isAfter(r.last()) ? ts.get() : r.last();
            byNs.put(ns.get(), new Recent(hour, last));
          }
        }
        if (older) {
          break;
        }
      } catch (IOException e) {
        break; // a segment deleted by compaction meanwhile: what was read stands
      }
    }
    return new Snapshot(perMinute, Map.copyOf(byNs), now);
  }

  private static Optional<String> field(String line, String key) {
    int at = line.indexOf(key);
    if (at < 0 || at > 200) {
      return Optional.empty();
    }
    int end = line.indexOf('"', at + key.length());
    return end < 0 ? Optional.empty() : Optional.of(line.substring(at + key.length(), end));
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
