package dev.loci.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A growable byte array that lines are encoded into and read from in place: the file journal
 * encodes a whole round of journal lines straight from the batches' fields into one (no string of a
 * line is built, no line copied twice) and writes it with one call; the audit log signs and spools
 * its lines from one. Kept by its owner from one use to the next. Not thread-safe.
 */
public final class LineBuffer {
  private static final int KEEP = 8 << 20; // a buffer grown past this is dropped when emptied

  private byte[] bytes;
  private int size;

  /** An empty buffer with room for {@code capacity} bytes before it grows. */
  public LineBuffer(int capacity) {
    bytes = new byte[Math.max(64, capacity)];
  }

  /** How many bytes the buffer holds. */
  public int size() {
    return size;
  }

  /** The array the bytes are in: the first {@link #size} of it. */
  public byte[] array() {
    return bytes;
  }

  /** Drops every byte from {@code size} on. */
  public void truncate(int size) {
    this.size = size;
  }

  /** Empties the buffer, keeping its array unless it grew large. */
  public void clear() {
    size = 0;
    if (bytes.length > KEEP) {
      bytes = new byte[KEEP / 8];
    }
  }

  /** The bytes so far, not copied; valid until the buffer changes. */
  public ByteBuffer view() {
    return ByteBuffer.wrap(bytes, 0, size);
  }

  /** A copy of the bytes from {@code from} to the end. */
  byte[] copy(int from) {
    return Arrays.copyOfRange(bytes, from, size);
  }

  /** The CRC-32C of the bytes from {@code from} to the end. */
  int crc32c(int from) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, size - from);
    return (int) crc.getValue();
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }

  /** Appends one byte. */
  public LineBuffer put(byte b) {
    ensure(1);
    bytes[size++] = b;
    return this;
  }

  /** Appends {@code b}. */
  public LineBuffer put(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, bytes, size, b.length);
    size += b.length;
    return this;
  }

  /** Appends {@code s} in UTF-8. */
  public LineBuffer utf8(CharSequence s) {
    // through a String: its encoder copies a Latin-1 string's bytes in bulk, char by char is slower
    return put(s.toString().getBytes(UTF_8));
  }

  /** Appends {@code v} in decimal. */
  LineBuffer number(long v) {
    if (v < 0) {
      if (v == Long.MIN_VALUE) {
        return utf8(Long.toString(v));
      }
      put((byte) '-');
      v = -v;
    }
    int digits = 1;
    for (long p = 10; digits < 19 && v >= p; p *= 10) {
      digits++;
    }
    ensure(digits);
    for (int i = size + digits - 1; i >= size; i--) {
      bytes[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    size += digits;
    return this;
  }

  /** Appends {@code v} as {@code digits} lower-case hex digits. */
  LineBuffer hex(int v, int digits) {
    ensure(digits);
    for (int i = digits - 1; i >= 0; i--) {
      int d = v >>> (4 * (digits - 1 - i)) & 0xF;
      bytes[size + i] = (byte) (d < 10 ? '0' + d : 'a' + d - 10);
    }
    size += digits;
    return this;
  }
}
