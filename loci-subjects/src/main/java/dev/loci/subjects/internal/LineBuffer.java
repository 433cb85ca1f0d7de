package dev.loci.subjects.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that audit lines are encoded into, read in place (its array is not copied
 * to be signed or written). Kept by the audit log from one append to the next, so that a second's
 * lines do not allocate a new buffer each time. Not thread-safe.
 */
final class LineBuffer {
  private static final int KEEP = 8 << 20; // a buffer grown past this is dropped when emptied

  private byte[] bytes;
  private int size;

  LineBuffer(int capacity) {
    bytes = new byte[Math.max(64, capacity)];
  }

  int size() {
    return size;
  }

  /** The array the bytes are in: the first {@link #size} of it. */
  byte[] array() {
    return bytes;
  }

  /** The bytes so far, not copied. */
  ByteBuffer view() {
    return ByteBuffer.wrap(bytes, 0, size);
  }

  /** Empties the buffer, keeping its array unless it grew large. */
  void clear() {
    size = 0;
    if (bytes.length > KEEP) {
      bytes = new byte[KEEP / 8];
    }
  }

  LineBuffer put(byte b) {
    ensure(1);
    bytes[size++] = b;
    return this;
  }

  LineBuffer put(byte[] b) {
    return put(b, 0, b.length);
  }

  /** Appends {@code length} bytes of {@code b} from {@code offset}. */
  LineBuffer put(byte[] b, int offset, int length) {
    ensure(length);
    System.arraycopy(b, offset, bytes, size, length);
    size += length;
    return this;
  }

  /** Appends {@code s} in UTF-8. */
  LineBuffer utf8(CharSequence s) {
    // through a String: its encoder copies a Latin-1 string's bytes in bulk, char by char is slower
    return put(s.toString().getBytes(StandardCharsets.UTF_8));
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
    }
  }
}
