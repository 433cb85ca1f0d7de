package dev.loci.embed.onnx;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The protocol buffers wire format, as far as rewriting an ONNX model needs it: a message is read
 * as its fields in order (a varint, or a slice of the buffer for the other wire types, never
 * copied) and written back field by field, so fields this code does not know pass through
 * unchanged.
 */
final class ProtoWire {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LEN = 2;
  static final int FIXED32 = 5;

  private ProtoWire() {}

  /**
   * One field: its number, wire type, and value (a varint, or {@code len} bytes at {@code off}).
   */
  record Field(int number, int type, long varint, byte[] buf, int off, int len) {
    /** The value of a length-delimited field as UTF-8 text. */
    String string() {
      return new String(buf, off, len, StandardCharsets.UTF_8);
    }

    /** The fields of a length-delimited field holding a message. */
    List<Field> message() {
      return parse(buf, off, len);
    }
  }

  /**
   * The fields of the message in {@code buf[off, off + len)}.
   *
   * @throws IllegalArgumentException if the bytes are not a well-formed message
   */
  static List<Field> parse(byte[] buf, int off, int len) {
    List<Field> fields = new ArrayList<>();
    int[] pos = {off};
    int end = off + len;
    while (pos[0] < end) {
      long key = readVarint(buf, pos, end);
      int number = (int) (key >>> 3);
      int type = (int) (key & 7);
      switch (type) {
        case VARINT -> fields.add(new Field(number, type, readVarint(buf, pos, end), buf, 0, 0));
        case FIXED64, FIXED32 -> {
          int n = type == FIXED64 ? 8 : 4;
          check(pos[0] + n <= end, "a fixed field runs past its message");
          fields.add(new Field(number, type, 0, buf, pos[0], n));
          pos[0] += n;
        }
        case LEN -> {
          long n = readVarint(buf, pos, end);
          check(n >= 0 && pos[0] + n <= end, "a length-delimited field runs past its message");
          fields.add(new Field(number, type, 0, buf, pos[0], (int) n));
          pos[0] += (int) n;
        }
        default -> throw new IllegalArgumentException("unsupported wire type " + type);
      }
    }
    return fields;
  }

  private static long readVarint(byte[] buf, int[] pos, int end) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      check(pos[0] < end, "a varint runs past its message");
      byte b = buf[pos[0]++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("a varint is longer than 10 bytes");
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalArgumentException("not a protocol buffers message: " + what);
    }
  }

  /** Writes a message field by field. */
  static final class Writer {
    private final ByteArrayOutputStream out;

    Writer(int expectedSize) {
      out = new ByteArrayOutputStream(expectedSize);
    }

    Writer varint(int number, long value) {
      key(number, VARINT);
      raw(value);
      return this;
    }

    Writer bytes(int number, byte[] buf, int off, int len) {
      key(number, LEN);
      raw(len);
      out.write(buf, off, len);
      return this;
    }

    Writer bytes(int number, byte[] value) {
      return bytes(number, value, 0, value.length);
    }

    Writer string(int number, String value) {
      return bytes(number, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code f} as it was read. */
    Writer field(Field f) {
      if (f.type() == VARINT) {
        return varint(f.number(), f.varint());
      }
      if (f.type() == LEN) {
        return bytes(f.number(), f.buf(), f.off(), f.len());
      }
      key(f.number(), f.type());
      out.write(f.buf(), f.off(), f.len());
      return this;
    }

    byte[] toBytes() {
      return out.toByteArray();
    }

    private void key(int number, int type) {
      raw(((long) number << 3) | type);
    }

    private void raw(long value) {
      while ((value & ~0x7fL) != 0) {
        out.write((int) ((value & 0x7f) | 0x80));
        value >>>= 7;
      }
      out.write((int) value);
    }
  }
}
