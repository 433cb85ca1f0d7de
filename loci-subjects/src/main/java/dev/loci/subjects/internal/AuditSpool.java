package dev.loci.subjects.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The audit logs' write-ahead file, {@code <audit dir>/spool}: every signed audit line is appended
 * here first, as {@code <subject ref> <line>}, so that a second's entries for a thousand subjects
 * are one sequential write to one file. Appending them to a thousand subject files instead made a
 * thousand extending writes a second, each a metadata change that ext4 journals together with the
 * Loci journal's own fsyncs; and forcing the logs before a snapshot was a thousand fsyncs. {@link
 * AuditLog} brings the subject files up to date from the spool before they are read and at a
 * checkpoint, and empties it only after forcing those files. Not thread-safe.
 */
final class AuditSpool {
  static final String NAME = "spool";
  private static final int CHUNK = 1 << 20;
  private static final int REF = 64; // a subject reference's length: SHA-256 in hex

  /**
   * One spooled line: the subject's reference and the line (with its line end), {@code length}
   * bytes of {@code bytes} from {@code offset} (a buffer every line of one read shares).
   */
  record Line(String ref, byte[] bytes, int offset, int length) {
    /** The line's bytes. */
    byte[] line() {
      return Arrays.copyOfRange(bytes, offset, offset + length);
    }
  }

  private final Path file;
  private FileChannel channel;
  private long size = -1;

  AuditSpool(Path dir) {
    this.file = dir.resolve(NAME);
  }

  /**
   * Appends {@code bytes} (whole spool lines) in one write; if it fails, cuts what it wrote (so the
   * next append does not follow half a line).
   */
  void append(byte[] bytes) throws IOException {
    append(ByteBuffer.wrap(bytes));
  }

  /** Like {@link #append(byte[])}, of the bytes {@code buf} has remaining. */
  void append(ByteBuffer buf) throws IOException {
    FileChannel ch = channel();
    long before = size;
    int length = buf.remaining();
    try {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    } catch (IOException | RuntimeException e) {
      try {
        ch.truncate(before);
      } catch (IOException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    size += length;
  }

  /** Bytes in the spool. */
  long size() throws IOException {
    if (size < 0) {
      size = Files.exists(file) ? Files.size(file) : 0;
    }
    return size;
  }

  /** Forces what was appended to disk (nothing to do when nothing was). */
  void force() throws IOException {
    if (channel != null) {
      channel.force(false);
    }
  }

  /**
   * The spooled lines, in order; a torn last line (a crash in the middle of a write) is left out:
   * the journal makes its entry again.
   */
  List<Line> read() throws IOException {
    return read(0);
  }

  /** Like {@link #read()}, from byte {@code from} of the spool (the start of a line). */
  List<Line> read(long from) throws IOException {
    List<Line> out = new ArrayList<>();
    byte[] bytes = bytes(from);
    lines(
        bytes,
        (refAt, start, length) ->
            out.add(
                new Line(
                    new String(bytes, refAt, REF, StandardCharsets.US_ASCII),
                    bytes,
                    start,
                    length)));
    return out;
  }

  /**
   * The whole lines from byte {@code from} on (the start of a line), each subject's in one array in
   * order, the subjects in the order of their first line: what is appended to each subject's file.
   */
  Map<String, byte[]> readByRef(long from) throws IOException {
    byte[] bytes = bytes(from);
    ByRef groups = new ByRef(bytes);
    lines(bytes, groups::add);
    return groups.arrays();
  }

  /** Where {@link #lines} hands each line: where its subject's reference and its bytes lie. */
  private interface LineSink {
    void line(int refAt, int start, int length);
  }

  /** Hands each whole line of {@code bytes} to {@code sink}; a torn last line is left out. */
  private static void lines(byte[] bytes, LineSink sink) {
    int start = 0;
    while (start < bytes.length) {
      int nl = start;
      while (nl < bytes.length && bytes[nl] != '\n') {
        nl++;
      }
      if (nl == bytes.length) {
        break; // torn
      }
      int sp = start + REF;
      if (sp < nl && bytes[sp] == ' ') {
        sink.line(start, sp + 1, nl - sp);
      }
      start = nl + 1;
    }
  }

  /**
   * Spooled lines grouped by subject, the subjects found by the bytes of their reference in an
   * open-addressing table (no string made per line: a checkpoint groups a spool of 64 MiB, about
   * 250,000 lines, and under load every microsecond of it is charged many times over), then copied
   * into one array of the exact size per subject.
   */
  private static final class ByRef {
    private final byte[] bytes;
    // per subject: where its reference lies, its lines' total length, the next free slot, then
    // each line's start and length
    private final List<int[]> lines = new ArrayList<>();
    private int[] table = new int[1024]; // subject index + 1, 0 for an empty slot

    ByRef(byte[] bytes) {
      this.bytes = bytes;
    }

    void add(int refAt, int start, int length) {
      int mask = table.length - 1;
      for (int i = hash(refAt) & mask; ; i = (i + 1) & mask) {
        int g = table[i] - 1;
        if (g < 0) {
          table[i] = lines.size() + 1;
          lines.add(new int[] {refAt, length, 5, start, length, 0, 0});
          if (lines.size() * 2 > table.length) {
            grow();
          }
          return;
        }
        int[] group = lines.get(g);
        int at = group[0];
        if (Arrays.equals(bytes, at, at + REF, bytes, refAt, refAt + REF)) {
          int end = group[2];
          if (end + 2 > group.length) {
            group = Arrays.copyOf(group, group.length * 2);
            lines.set(g, group);
          }
          group[1] += length;
          group[end] = start;
          group[end + 1] = length;
          group[2] = end + 2;
          return;
        }
      }
    }

    private int hash(int refAt) {
      int h = 0;
      for (int i = refAt; i < refAt + 16; i++) {
        h = 31 * h + bytes[i];
      }
      return h ^ (h >>> 16);
    }

    private void grow() {
      int[] bigger = new int[table.length * 2];
      int mask = bigger.length - 1;
      for (int g = 0; g < lines.size(); g++) {
        int i = hash(lines.get(g)[0]) & mask;
        while (bigger[i] != 0) {
          i = (i + 1) & mask;
        }
        bigger[i] = g + 1;
      }
      table = bigger;
    }

    Map<String, byte[]> arrays() {
      Map<String, byte[]> out = new LinkedHashMap<>(lines.size() * 2);
      for (int g = 0; g < lines.size(); g++) {
        int[] group = lines.get(g);
        byte[] all = new byte[group[1]];
        int at = 0;
        for (int k = 3; k < group[2]; k += 2) {
          System.arraycopy(bytes, group[k], all, at, group[k + 1]);
          at += group[k + 1];
        }
        out.put(new String(bytes, group[0], REF, StandardCharsets.US_ASCII), all);
      }
      return out;
    }
  }

  /** The spool's bytes from {@code from} on, read in chunks (no direct buffer of its size). */
  private byte[] bytes(long from) throws IOException {
    if (!Files.exists(file)) {
      return new byte[0];
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long length = ch.size() - from;
      if (length <= 0) {
        return new byte[0];
      }
      if (length > Integer.MAX_VALUE - 8) {
        throw new IOException("audit spool " + file + " is too large to read: " + length);
      }
      byte[] bytes = new byte[(int) length];
      for (int at = 0; at < bytes.length; ) {
        int n = ch.read(ByteBuffer.wrap(bytes, at, Math.min(CHUNK, bytes.length - at)), from + at);
        if (n < 0) {
          return Arrays.copyOf(bytes, at); // cut meanwhile: what was read
        }
        at += n;
      }
      return bytes;
    }
  }

  /** Empties the spool, durably: called once every line in it is forced in its subject's file. */
  void truncate() throws IOException {
    FileChannel ch = channel();
    ch.truncate(0);
    ch.force(true);
    size = 0;
  }

  private FileChannel channel() throws IOException {
    if (channel == null) {
      Files.createDirectories(file.getParent());
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      size = channel.size();
    }
    return channel;
  }

  void close() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // appends are written through; what was not forced is in the journal
      }
      channel = null;
    }
  }
}
