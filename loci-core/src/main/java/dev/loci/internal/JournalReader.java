package dev.loci.internal;

import dev.loci.Damage;
import dev.loci.Namespace;
import dev.loci.spi.JournalEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Reading a {@link FileJournal}'s segments in order: checksums, sequence gaps, batches run together
 * by a damaged line break, and the zero tail of preallocated space, each reported as {@link Damage}
 * with file, offset and sequence. Opens nothing for writing.
 */
final class JournalReader {
  private JournalReader() {}

  /**
   * Reads the segments in {@code dir} without opening them for writing: used by {@link
   * FileJournal#read} and by verification of a directory another process may hold open.
   *
   * @param fromSeq batches below this are covered elsewhere (a snapshot): a gap below it is not
   *     damage
   * @param everything if true, every line of every segment is checked and every good batch passed
   *     on, even below {@code fromSeq} (verification); if false, segments and lines below {@code
   *     fromSeq} are skipped (opening), most of them unread ({@link SegmentSeek})
   */
  public static void read(
      Path dir,
      long fromSeq,
      boolean everything,
      Consumer<JournalEntry> entries,
      Consumer<Damage> damage)
      throws IOException {
    List<Path> segments = JournalSegments.segments(dir);
    ReadState state = new ReadState(fromSeq, everything, entries, damage);
    for (int i = 0; i < segments.size(); i++) {
      if (!everything
          && i + 1 < segments.size()
          && JournalSegments.firstSeq(segments.get(i + 1)) <= fromSeq) {
        continue;
      }
      state.file = segments.get(i);
      boolean covered = !everything && JournalSegments.firstSeq(state.file) < fromSeq;
      long from = covered ? SegmentSeek.lineBelow(state.file, fromSeq) : 0;
      LineScanner.scan(state.file, from, state::line);
      state.endOfSegment(i == segments.size() - 1);
    }
  }

  /** Per-read bookkeeping: the last good sequence number and lines awaiting classification. */
  private static final class ReadState {
    private final long fromSeq;
    private final boolean everything;
    private final Consumer<JournalEntry> entries;
    private final Consumer<Damage> damage;
    private final Map<String, Namespace> namespaces = JournalLines.namespaceCache();
    private Path file;
    private long lastGood;
    private long badSinceGood;
    private Damage pendingBad;

    ReadState(
        long fromSeq, boolean everything, Consumer<JournalEntry> entries, Consumer<Damage> damage) {
      this.fromSeq = fromSeq;
      this.everything = everything;
      this.entries = entries;
      this.damage = damage;
    }

    void line(long offset, byte[] buf, int off, int len, boolean terminated) {
      flushBad();
      OptionalLong peeked = JournalLines.peekSeq(buf, off, len);
      if (!everything
          && terminated
          && peeked.isPresent()
          && peeked.getAsLong() < fromSeq
          && JournalLines.checksumMatches(buf, off, len)) {
        return;
      }
      if (!terminated && allZero(buf, off, len)) {
        return; // preallocated space of a live journal, not yet written
      }
      if (!terminated) {
        pendingBad =
            new Damage(
                Damage.Kind.BAD_LINE, file, offset, peeked, "line has no newline: cut short");
        badSinceGood++;
        return;
      }
      try {
        accept(offset, JournalLines.decode(buf, off, len, namespaces));
      } catch (JournalLines.BadLineException e) {
        JournalLines.Salvage salvage = JournalLines.salvage(buf, off, len, namespaces);
        if (salvage.entries().isEmpty()) {
          pendingBad = new Damage(Damage.Kind.BAD_LINE, file, offset, e.seq(), e.getMessage());
          badSinceGood++;
          return;
        }
        damage.accept(
            new Damage(
                Damage.Kind.BAD_LINE,
                file,
                offset,
                e.seq(),
                "line holds "
                    + (salvage.entries().size() + salvage.badParts())
                    + " batches run together (a damaged line break); "
                    + salvage.entries().size()
                    + " recovered, "
                    + salvage.badParts()
                    + " unreadable"));
        badSinceGood += salvage.badParts();
        for (JournalEntry entry : salvage.entries()) {
          accept(offset, entry);
        }
      }
    }

    private void accept(long offset, JournalEntry entry) {
      long seq = entry.seq();
      if (!everything && seq < fromSeq) {
        return;
      }
      if (seq <= lastGood) {
        damage.accept(
            new Damage(
                Damage.Kind.BAD_LINE,
                file,
                offset,
                OptionalLong.of(seq),
                "sequence " + seq + " repeats or goes backwards after " + lastGood + "; skipped"));
        badSinceGood++;
        return;
      }
      // batches missing before this one, not counting those a snapshot covers
      long firstMissing = Math.max(lastGood + 1, fromSeq);
      long missing = seq - firstMissing;
      if (missing > badSinceGood) {
        damage.accept(
            new Damage(
                Damage.Kind.SEQUENCE_GAP,
                file,
                offset,
                OptionalLong.of(seq),
                "batches " + firstMissing + " to " + (seq - 1) + " are missing before this line"));
      }
      lastGood = seq;
      badSinceGood = 0;
      entries.accept(entry);
    }

    private void flushBad() {
      if (pendingBad != null) {
        damage.accept(pendingBad);
        pendingBad = null;
      }
    }

    void endOfSegment(boolean last) {
      if (pendingBad != null && last) {
        Damage d = pendingBad;
        pendingBad =
            new Damage(
                Damage.Kind.TORN_TAIL,
                d.file(),
                d.offset(),
                d.seq(),
                d.detail() + " (last line of the journal: a write cut short, truncated on open)");
      }
      flushBad();
    }
  }

  private static boolean allZero(byte[] buf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      if (buf[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
