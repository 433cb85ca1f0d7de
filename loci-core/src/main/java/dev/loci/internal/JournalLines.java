package dev.loci.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * The journal line format of DESIGN.md section 4: one JSON object per committed batch,
 *
 * <pre>{"seq":42,"ts":"...","ns":"acme.alice","actor":"...","events":[...],"crc32c":"1a2b3c4d"}
 * </pre>
 *
 * where {@code crc32c} is the CRC-32C of the UTF-8 bytes before {@code ,"crc32c"}. The checksum
 * always closes the line, so it sits in a fixed-length suffix and is checked before the line is
 * parsed.
 */
public final class JournalLines {
  private static final byte[] CRC_MARK = ",\"crc32c\":\"".getBytes(UTF_8);

  /** Bytes after the checksummed prefix: {@code ,"crc32c":"} + 8 hex digits + {@code "}}. */
  static final int SUFFIX_LENGTH = CRC_MARK.length + 8 + 2;

  private static final JsonFactory FACTORY = Json.MAPPER.getFactory();
  static final byte[] SEQ_MARK = "{\"seq\":".getBytes(UTF_8);

  private JournalLines() {}

  /** A line that is not a valid journal line. */
  public static final class BadLineException extends Exception {
    private static final long serialVersionUID = 1L;
    private final OptionalLong seq;

    BadLineException(String detail, OptionalLong seq) {
      super(detail, null, false, false);
      this.seq = seq;
    }

    /** The sequence number the line claims, when it can be read. */
    public OptionalLong seq() {
      return seq;
    }
  }

  static final byte[] TS_MARK = ",\"ts\":\"".getBytes(UTF_8);
  static final byte[] NS_MARK = "\",\"ns\":\"".getBytes(UTF_8);
  static final byte[] ACTOR_MARK = "\",\"actor\":".getBytes(UTF_8);
  static final byte[] EVENTS_MARK = ",\"events\":[".getBytes(UTF_8);
  static final byte[] TYPE_MARK = "{\"type\":\"".getBytes(UTF_8);
  static final byte[] DATA_MARK = "\",\"data\":".getBytes(UTF_8);

  /** Builds a complete line, newline included. */
  public static byte[] encode(long seq, Batch batch) {
    LineBuffer out = new LineBuffer(512);
    encode(out, seq, batch);
    return out.copy(0);
  }

  /**
   * Appends the complete line of {@code batch} at {@code seq}, newline included, to {@code out},
   * encoding each field straight into it: no string of the line is built.
   */
  static void encode(LineBuffer out, long seq, Batch batch) {
    int start = out.size();
    out.put(SEQ_MARK).number(seq).put(TS_MARK).put(LAST_TS.bytes(batch.ts()));
    out.put(NS_MARK).put(LAST_NS.bytes(batch.namespace())).put(ACTOR_MARK);
    out.put(LAST_ACTOR.bytes(batch.actor())).put(EVENTS_MARK);
    List<Event> events = batch.events();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      if (i > 0) {
        out.put((byte) ',');
      }
      // event types are [a-z0-9_.] only, so they need no escaping
      out.put(TYPE_MARK).put(LAST_TYPE.bytes(e.type())).put(DATA_MARK).utf8(e.json());
      out.put((byte) '}');
    }
    out.put((byte) ']');
    int crc = out.crc32c(start);
    out.put(CRC_MARK).hex(crc, 8).put((byte) '"').put((byte) '}').put((byte) '\n');
  }

  // Nearly every line repeats the last one's namespace, actor and event type, and the lines of one
  // round mostly share a time: each field's last value is kept with its encoding in the line.
  private static final LastEncoded LAST_TS =
      new LastEncoded(v -> Timestamps.format((Instant) v).getBytes(UTF_8));
  private static final LastEncoded LAST_NS =
      new LastEncoded(v -> ((Namespace) v).value().getBytes(UTF_8));
  private static final LastEncoded LAST_ACTOR =
      new LastEncoded(v -> Json.quote((String) v).getBytes(UTF_8));
  private static final LastEncoded LAST_TYPE = new LastEncoded(v -> ((String) v).getBytes(UTF_8));

  /**
   * The last value of one field of a line, with its bytes in the line. Shared by every thread
   * without locks: the pair is immutable, so a thread sees a whole one or a stale one, and a miss
   * only costs an encoding.
   */
  private static final class LastEncoded {
    private record Pair(Object value, byte[] bytes) {}

    private final Function<Object, byte[]> encode;
    private volatile Pair last = new Pair(new Object(), new byte[0]);

    LastEncoded(Function<Object, byte[]> encode) {
      this.encode = encode;
    }

    byte[] bytes(Object value) {
      Pair p = last;
      if (!p.value().equals(value)) {
        p = new Pair(value, encode.apply(value));
        last = p;
      }
      return p.bytes();
    }
  }

  /** Returns true if the line's checksum suffix is well formed and matches its prefix. */
  public static boolean checksumMatches(byte[] buf, int off, int len) {
    if (len < SUFFIX_LENGTH + 2) {
      return false;
    }
    int suffix = off + len - SUFFIX_LENGTH;
    for (int i = 0; i < CRC_MARK.length; i++) {
      if (buf[suffix + i] != CRC_MARK[i]) {
        return false;
      }
    }
    if (buf[off + len - 2] != '"' || buf[off + len - 1] != '}') {
      return false;
    }
    long stored = readHex(buf, suffix + CRC_MARK.length);
    if (stored < 0) {
      return false;
    }
    CRC32C crc = new CRC32C();
    crc.update(buf, off, len - SUFFIX_LENGTH);
    return crc.getValue() == stored;
  }

  /** Reads the sequence number from the start of a line without parsing the rest. */
  public static OptionalLong peekSeq(byte[] buf, int off, int len) {
    if (len <= SEQ_MARK.length) {
      return OptionalLong.empty();
    }
    for (int i = 0; i < SEQ_MARK.length; i++) {
      if (buf[off + i] != SEQ_MARK[i]) {
        return OptionalLong.empty();
      }
    }
    long v = 0;
    int i = off + SEQ_MARK.length;
    int end = off + len;
    int digits = 0;
    while (i < end && buf[i] >= '0' && buf[i] <= '9' && digits < 18) {
      v = v * 10 + (buf[i] - '0');
      i++;
      digits++;
    }
    return digits == 0 || i >= end || buf[i] != ',' ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /**
   * Parses and checks a line (without its newline).
   *
   * @param namespaces a cache of parsed namespaces, shared across the lines of one read
   * @throws BadLineException if the checksum fails or the line is not a well-formed batch
   */
  public static JournalEntry decode(byte[] buf, int off, int len, Map<String, Namespace> namespaces)
      throws BadLineException {
    OptionalLong peeked = peekSeq(buf, off, len);
    if (!checksumMatches(buf, off, len)) {
      throw new BadLineException(
          len < SUFFIX_LENGTH + 2 ? "line too short to hold a checksum" : "crc32c mismatch",
          peeked);
    }
    JournalEntry fast = JournalLineDecoder.decode(buf, off, len, namespaces);
    return fast != null ? fast : decodeWithParser(buf, off, len, namespaces, peeked);
  }

  /**
   * Decodes a line whose checksum matched with Jackson: the path of any line {@link
   * JournalLineDecoder} does not read, which gives the verdict and the error.
   */
  static JournalEntry decodeWithParser(
      byte[] buf, int off, int len, Map<String, Namespace> namespaces, OptionalLong peeked)
      throws BadLineException {
    // Streaming, not a tree. Event data is kept as the exact text of the line, parsed later by the
    // layer that applies it.
    byte[] line = Arrays.copyOfRange(buf, off, off + len);
    long seq = -1;
    String ts = null;
    String ns = null;
    String actor = null;
    List<Event> events = null;
    try (JsonParser p = FACTORY.createParser(line)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new BadLineException("not a JSON object", peeked);
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        switch (field) {
          case "seq" -> seq = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : -1;
          case "ts" -> ts = v == JsonToken.VALUE_STRING ? p.getText() : null;
          case "ns" -> ns = v == JsonToken.VALUE_STRING ? p.getText() : null;
          case "actor" -> actor = v == JsonToken.VALUE_STRING ? p.getText() : null;
          case "events" -> events = v == JsonToken.START_ARRAY ? readEvents(p, line, peeked) : null;
          default -> p.skipChildren();
        }
      }
      if (p.nextToken() != null) {
        throw new BadLineException("data after the object", peeked);
      }
    } catch (IOException e) {
      throw new BadLineException("not valid JSON: " + e.getMessage(), peeked);
    }
    if (seq < 1) {
      throw new BadLineException("field 'seq' must be a positive integer", peeked);
    }
    OptionalLong known = OptionalLong.of(seq);
    for (String[] required : new String[][] {{"ts", ts}, {"ns", ns}, {"actor", actor}}) {
      if (required[1] == null) {
        throw new BadLineException("field '" + required[0] + "' must be a string", known);
      }
    }
    if (events == null || events.isEmpty()) {
      throw new BadLineException("field 'events' must be a non-empty array", known);
    }
    try {
      return new JournalEntry(seq, Timestamps.parse(ts), namespace(namespaces, ns), actor, events);
    } catch (DateTimeParseException e) {
      throw new BadLineException("field 'ts' is not an ISO-8601 instant", known);
    } catch (InvalidRequestException | IllegalArgumentException e) {
      throw new BadLineException(e.getMessage(), known);
    }
  }

  private static List<Event> readEvents(JsonParser p, byte[] line, OptionalLong seq)
      throws IOException, BadLineException {
    List<Event> events = new ArrayList<>(2);
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
      String type = null;
      String data = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken v = p.nextToken();
        if (field.equals("type") && v == JsonToken.VALUE_STRING) {
          type = p.getText();
        } else if (field.equals("data")) {
          int start = (int) p.currentTokenLocation().getByteOffset();
          p.skipChildren();
          p.finishToken(); // scalars are read lazily; the end offset needs the whole token
          int end = (int) p.currentLocation().getByteOffset();
          data = new String(line, start, end - start, UTF_8);
        } else {
          p.skipChildren();
        }
      }
      if (type == null || data == null) {
        throw new BadLineException("each event needs a string 'type' and a 'data' value", seq);
      }
      try {
        events.add(Event.ofJson(type, data));
      } catch (IllegalArgumentException e) {
        throw new BadLineException(e.getMessage(), seq);
      }
    }
    if (t != JsonToken.END_ARRAY) {
      throw new BadLineException("field 'events' must hold objects", seq);
    }
    return events;
  }

  /**
   * What {@link #salvage} recovered from a bad line.
   *
   * @param entries the batches that decoded, in line order
   * @param badParts how many parts of the line did not decode
   */
  public record Salvage(List<JournalEntry> entries, int badParts) {
    /** Copies the list. */
    public Salvage {
      entries = List.copyOf(entries);
    }
  }

  /**
   * Recovers the batches of a bad line that is really several lines run together because a line
   * break was damaged: the line is split before every embedded {@code {"seq":} (dropping the byte
   * before it, the damaged break) and each part that passes its checksum is kept. A line with no
   * embedded start yields nothing.
   */
  public static Salvage salvage(byte[] buf, int off, int len, Map<String, Namespace> namespaces) {
    List<Integer> starts = new ArrayList<>();
    int end = off + len;
    for (int i = off; i + SEQ_MARK.length <= end; i++) {
      if (buf[i] == '{' && matchesAt(buf, i, SEQ_MARK)) {
        starts.add(i);
      }
    }
    if (starts.isEmpty() || (starts.size() == 1 && starts.get(0) == off)) {
      return new Salvage(List.of(), 1);
    }
    List<JournalEntry> entries = new ArrayList<>();
    int bad = starts.get(0) > off ? 1 : 0;
    int k = 0;
    while (k < starts.size()) {
      // a part runs from one start to just before a later one (the damaged break) or to the end;
      // trying every later end keeps a batch whose data happens to hold {"seq": in one piece
      int next = -1;
      for (int j = k + 1; j <= starts.size() && next < 0; j++) {
        int from = starts.get(k);
        int to = j < starts.size() ? starts.get(j) - 1 : end;
        try {
          entries.add(decode(buf, from, to - from, namespaces));
          next = j;
        } catch (BadLineException e) {
          // try a longer part
        }
      }
      if (next < 0) {
        bad++;
        next = k + 1;
      }
      k = next;
    }
    return new Salvage(entries, bad);
  }

  private static boolean matchesAt(byte[] buf, int at, byte[] mark) {
    for (int i = 0; i < mark.length; i++) {
      if (buf[at + i] != mark[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The namespace {@code ns}, from {@code namespaces} if parsed before, else parsed and added.
   *
   * @throws InvalidRequestException if {@code ns} is not a namespace
   */
  static Namespace namespace(Map<String, Namespace> namespaces, String ns) {
    Namespace namespace = namespaces.get(ns);
    if (namespace == null) {
      namespace = Namespace.of(ns);
      namespaces.put(ns, namespace);
    }
    return namespace;
  }

  /** A fresh namespace cache for one read pass. */
  public static Map<String, Namespace> namespaceCache() {
    return new HashMap<>();
  }

  private static long readHex(byte[] buf, int at) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      byte b = buf[at + i];
      int d;
      if (b >= '0' && b <= '9') {
        d = b - '0';
      } else if (b >= 'a' && b <= 'f') {
        d = b - 'a' + 10;
      } else {
        return -1;
      }
      v = v << 4 | d;
    }
    return v;
  }
}
