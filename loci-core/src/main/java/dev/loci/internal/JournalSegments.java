package dev.loci.internal;

import dev.loci.Damage;
import dev.loci.Namespace;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The segment files of a {@link FileJournal} at rest: their names, the state of a segment's tail
 * (what opening repairs), trimming preallocated space, and rewriting a closed segment for erasure.
 * Stateless; nothing here holds a file open between calls.
 */
final class JournalSegments {
  private static final System.Logger LOG = System.getLogger(FileJournal.class.getName());
  private static final Pattern SEGMENT_NAME = Pattern.compile("\\d{20}\\.jsonl");

  private JournalSegments() {}

  /**
   * Cuts a zero tail, unwritten preallocated space, off a segment file. Zero bytes never occur in a
   * journal line, so none of them is data.
   */
  static void trimZeroTail(Path file) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = ch.size();
      long end = size;
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      scan:
      while (end > 0) {
        int n = (int) Math.min(buf.capacity(), end);
        buf.clear().limit(n);
        long from = end - n;
        while (buf.hasRemaining()) {
          if (ch.read(buf, from + buf.position()) < 0) {
            break;
          }
        }
        for (int i = n - 1; i >= 0; i--) {
          if (buf.get(i) != 0) {
            end = from + i + 1;
            break scan;
          }
        }
        end = from;
      }
      if (end < size) {
        ch.truncate(end);
        ch.force(true);
      }
    }
  }

  /**
   * Rewrites one closed segment through {@code scrub} into a temporary file, forces it and renames
   * it over the segment; returns how many batches changed (0: the segment is left untouched).
   */
  static long rewriteSegment(
      Path seg, TokenFilter filter, Function<JournalEntry, Optional<List<Event>>> scrub)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Map<String, Namespace> namespaces = JournalLines.namespaceCache();
    long[] changed = {0};
    LineScanner.scan(
        seg,
        (offset, buf, off, len, terminated) -> {
          byte[] line = null;
          // a line that names none of the records is kept byte for byte without decoding
          try {
            JournalEntry entry =
                filter.mayHold(buf, off, len)
                    ? JournalLines.decode(buf, off, len, namespaces)
                    : null;
            Optional<List<Event>> events = entry == null ? Optional.empty() : scrub.apply(entry);
            if (events.isPresent()) {
              Batch b = new Batch(entry.ts(), entry.namespace(), entry.actor(), events.get());
              line = JournalLines.encode(entry.seq(), b);
              changed[0]++;
            }
          } catch (JournalLines.BadLineException e) {
            // kept byte for byte: verify goes on reporting it
          }
          if (line != null) {
            out.write(line, 0, line.length);
          } else {
            out.write(buf, off, len);
            if (terminated) {
              out.write('\n');
            }
          }
        });
    if (changed[0] == 0) {
      return 0;
    }
    Directories.replace(seg, out.toByteArray(), ".rewrite");
    return changed[0];
  }

  /** The segment files in {@code dir}, oldest first. */
  public static List<Path> segments(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> SEGMENT_NAME.matcher(p.getFileName().toString()).matches())
          .sorted()
          .toList();
    }
  }

  /** The first sequence number a segment file holds, from its name. */
  public static long firstSeq(Path segment) {
    String name = segment.getFileName().toString();
    return Long.parseLong(name.substring(0, 20));
  }

  /** The file name of a segment whose first batch is {@code seq}. */
  public static String segmentName(long seq) {
    return String.format("%020d.jsonl", seq);
  }

  static long lastSeqOf(Path segment) throws IOException {
    return Math.max(firstSeq(segment) - 1, TailState.read(segment).maxSeq);
  }

  /**
   * What the end of a segment looks like: the sequence number of its last good line and the torn
   * region, if any. The torn region starts at the first bad line after the last good one and runs
   * to the end of the file: the unsynced tail a crash can leave, as partial lines, zeros, or both.
   * A line that holds a complete batch with a valid checksum (even run together with another) is
   * never part of it, because a cut-short write cannot produce one. The segment is read from its
   * end back to its last good line only, so opening a large journal does not read it all; lines are
   * in sequence order, so the last good line holds the highest sequence number (a line out of order
   * is damage that replay reports, and the engine then moves past the highest number it saw).
   */
  static final class TailState {
    long size;
    long maxSeq;
    long tornAt = -1;
    OptionalLong tornSeq = OptionalLong.empty();
    String tornDetail = "";
    int tornLines;

    static TailState read(Path segment) throws IOException {
      TailState t = new TailState();
      t.size = Files.size(segment);
      Map<String, Namespace> namespaces = JournalLines.namespaceCache();
      LineScanner.scanBackward(
          segment,
          (offset, buf, off, len, terminated) -> {
            OptionalLong peek = JournalLines.peekSeq(buf, off, len);
            String problem = null;
            long good = -1;
            if (!terminated) {
              problem = "no newline";
            } else if (JournalLines.checksumMatches(buf, off, len) && peek.isPresent()) {
              good = peek.getAsLong();
              if (offset + len + 1 == t.size) {
                try {
                  JournalLines.decode(buf, off, len, namespaces);
                } catch (JournalLines.BadLineException e) {
                  problem = e.getMessage();
                }
              }
            } else if (containsZero(buf, off, len)) {
              // zeros are space never written: a crash lost these bytes, so whatever follows
              // them in the line was not durable either, even a batch that salvages
              problem = "unwritten (zero) bytes";
            } else {
              JournalLines.Salvage salvage = JournalLines.salvage(buf, off, len, namespaces);
              if (salvage.entries().isEmpty()) {
                problem = "crc32c mismatch";
              } else {
                for (JournalEntry e : salvage.entries()) {
                  good = Math.max(good, e.seq());
                }
              }
            }
            if (problem == null) {
              t.maxSeq = good;
              return false; // the last good line: what comes before it is not the tail
            }
            t.tornAt = offset; // the earliest bad line after the last good one, so far
            t.tornSeq = peek;
            t.tornDetail = problem;
            t.tornLines++;
            return true;
          });
      return t;
    }
  }

  static boolean containsZero(byte[] buf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      if (buf[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** The active (last) segment of a journal directory, and the last sequence number written. */
  record Recovered(Path active, long lastSeq) {}

  /**
   * Finds the active segment of {@code dir} (creating the first one if there is none), cuts its
   * zero tail and its torn tail off, and adds a {@link Damage.Kind#TORN_TAIL} to {@code damage} if
   * it cut lines.
   */
  static Recovered recover(Path dir, List<Damage> damage) throws IOException {
    List<Path> segments = segments(dir);
    long lastSeq = 0;
    Path active;
    if (segments.isEmpty()) {
      active = dir.resolve(segmentName(1));
      Files.createFile(active);
      Directories.sync(dir);
    } else {
      active = segments.get(segments.size() - 1);
      lastSeq = firstSeq(active) - 1;
      trimZeroTail(active);
      TailState tail = TailState.read(active);
      if (tail.tornAt >= 0) {
        damage.add(
            new Damage(
                Damage.Kind.TORN_TAIL,
                active,
                tail.tornAt,
                tail.tornSeq,
                "last "
                    + (tail.tornLines == 1 ? "line" : tail.tornLines + " lines")
                    + " cut short or failing the checksum ("
                    + tail.tornDetail
                    + "); truncated "
                    + (tail.size - tail.tornAt)
                    + " bytes"));
        try (FileChannel ch = FileChannel.open(active, StandardOpenOption.WRITE)) {
          ch.truncate(tail.tornAt);
          ch.force(true);
        }
        LOG.log(System.Logger.Level.WARNING, "journal: " + damage.get(damage.size() - 1));
      }
      lastSeq = Math.max(lastSeq, tail.maxSeq);
      if (tail.maxSeq == 0 && segments.size() > 1) {
        lastSeq = Math.max(lastSeq, lastSeqOf(segments.get(segments.size() - 2)));
      }
    }
    return new Recovered(active, lastSeq);
  }
}
