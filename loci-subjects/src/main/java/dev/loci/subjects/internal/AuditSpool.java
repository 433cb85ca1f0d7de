package dev.loci.subjects.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

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

  /**
   * One spooled line: the subject's reference and the line (with its line end), {@code length}
   * bytes of {@code bytes} from {@code offset} (a buffer every line of one read shares).
   */
  record Line(String ref, byte[] bytes, int offset, int length) {
    /** The line's bytes. */
    byte[] line() {
      return java.util.Arrays.copyOfRange(bytes, offset, offset + length);
    }

    /** The line's bytes, not copied. */
    ByteBuffer buffer() {
      return ByteBuffer.wrap(bytes, offset, length);
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
    if (!Files.exists(file)) {
      return out;
    }
    byte[] bytes;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long length = ch.size() - from;
      if (length <= 0) {
        return out;
      }
      if (length > Integer.MAX_VALUE - 8) {
        throw new IOException("audit spool " + file + " is too large to read: " + length);
      }
      ByteBuffer buf = ByteBuffer.allocate((int) length);
      while (buf.hasRemaining() && ch.read(buf, from + buf.position()) >= 0) {
        // positional reads until the buffer is full
      }
      bytes = buf.array();
    }
    int start = 0;
    while (start < bytes.length) {
      int nl = start;
      while (nl < bytes.length && bytes[nl] != '\n') {
        nl++;
      }
      if (nl == bytes.length) {
        break; // torn
      }
      int sp = start + 64;
      if (sp < nl && bytes[sp] == ' ') {
        String ref = new String(bytes, start, 64, StandardCharsets.US_ASCII);
        out.add(new Line(ref, bytes, sp + 1, nl - sp));
      }
      start = nl + 1;
    }
    return out;
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
