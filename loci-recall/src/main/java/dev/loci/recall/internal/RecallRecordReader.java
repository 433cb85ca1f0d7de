package dev.loci.recall.internal;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fast path of restoring a recall snapshot record: reads a record laid out exactly as {@link
 * RecallSnapshots#capture} writes it, the common shape only ({@code ns}, {@code version}, {@code
 * at}, {@code removed}, then a {@code node} without source or subjects, or an {@code edge} without
 * source; strings of printable ASCII without escapes), straight from its bytes. Restoring a million
 * nodes and three million edges through Jackson databind cost half of the open.
 *
 * <p>It answers null for anything else, and the caller reads the record with Jackson as before: so
 * a record this path reads gives the values databind would, and every other record is judged as
 * before.
 *
 * <p>Not thread-safe: one instance per restore.
 */
final class RecallRecordReader {
  private byte[] b;
  private int i;
  private int end;
  private byte[] lastAt = new byte[0];
  private Instant lastInstant;
  private final Map<String, String> types; // null: type names are not shared
  private final String[] recentTypes = new String[8]; // the first few type names, by their bytes
  private final IdAt ids; // null: ids are not shared
  private String lastNs = "";
  // the edge read last: its ends as offsets and lengths into b, and its other fields
  private int fromStart;
  private int fromLen;
  private int toStart;
  private int toLen;
  private String edgeType;
  private double edgeWeight;
  private double edgeConfidence;
  private boolean edgeBoth;

  /** The id of the node at a place in a namespace's put order, as a restore has rebuilt it. */
  @FunctionalInterface
  interface IdAt {
    /** The id of the node at {@code ordinal} of namespace {@code ns}, or null. */
    String idAt(String ns, int ordinal);
  }

  /**
   * A reader of snapshot records, one after another, sharing type names, namespace names and times,
   * and the ids {@code ids} gives for an edge's nodes' ordinals when equal to the edge's.
   */
  RecallRecordReader(IdAt ids) {
    this.types = new HashMap<>();
    this.ids = ids;
  }

  private RecallRecordReader(byte[] json) {
    this.types = null;
    this.ids = null;
    this.b = json;
    this.end = json.length;
  }

  /**
   * The data of a {@code recall.node_put} event as {@link RecallEvents#nodePut(MemoryNode, int)}
   * writes it, in the common shape, or null.
   */
  static RecallEvents.NodePut nodePut(String json) {
    RecallRecordReader r = new RecallRecordReader(json.getBytes(UTF_8));
    try {
      int version = r.version(",\"node\":");
      MemoryNode node = version > 0 ? r.node() : null;
      return node != null && r.skip("}") && r.i == r.end
          ? new RecallEvents.NodePut(node, version)
          : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The data of a {@code recall.edge_put} event in the common shape, or null. */
  static RecallEvents.EdgePut edgePut(String json) {
    RecallRecordReader r = new RecallRecordReader(json.getBytes(UTF_8));
    try {
      int version = r.version(",\"edge\":");
      MemoryEdge edge = version > 0 && r.edge() ? r.edge(null, -1, -1) : null;
      return edge != null && r.skip("}") && r.i == r.end
          ? new RecallEvents.EdgePut(edge, version)
          : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** {@code {"version":N} and {@code mark}: N, or -1. */
  private int version(String mark) {
    if (!skip("{\"version\":")) {
      return -1;
    }
    long v = integer();
    return v >= 1 && v <= Integer.MAX_VALUE && skip(mark) ? (int) v : -1;
  }

  /** Reads the record in {@code len} bytes of {@code buf} from {@code off}, or returns null. */
  RecallSnapshots.Record read(byte[] buf, int off, int len) {
    b = buf;
    i = off;
    end = off + len;
    try {
      return record();
    } catch (RuntimeException e) {
      return null; // a value a record refuses: Jackson's path reports it
    }
  }

  private RecallSnapshots.Record record() {
    if (!skip("{\"ns\":")) {
      return null;
    }
    String ns = namespace();
    if (ns != null && skip(",\"nodes\":")) {
      return sizes(ns);
    }
    if (ns == null || !skip(",\"version\":")) {
      return null;
    }
    long version = integer();
    if (version < 1 || version > Integer.MAX_VALUE || !skip(",\"at\":")) {
      return null;
    }
    Instant at = instant();
    if (at == null || !skip(",\"removed\":")) {
      return null;
    }
    boolean removed;
    if (skip("true")) {
      removed = true;
    } else if (skip("false")) {
      removed = false;
    } else {
      return null;
    }
    MemoryNode node = null;
    MemoryEdge edge = null;
    Integer fromNode = null;
    Integer toNode = null;
    if (skip(",\"node\":")) {
      node = node();
    } else if (skip(",\"edge\":")) {
      if (!edge()) {
        return null;
      }
      if (skip(",\"from_node\":")) {
        long from = integer();
        long to = skip(",\"to_node\":") ? integer() : -1;
        if (from < 0 || to < 0 || from > Integer.MAX_VALUE || to > Integer.MAX_VALUE) {
          return null;
        }
        fromNode = (int) from;
        toNode = (int) to;
      }
      edge = edge(ns, fromNode == null ? -1 : fromNode, toNode == null ? -1 : toNode);
    }
    if (node == null && edge == null || !skip("}") || i != end) {
      return null;
    }
    return new RecallSnapshots.Record(
        ns, (int) version, at, removed, node, edge, fromNode, toNode, null, null);
  }

  /** The rest of a namespace's sizes record, after {@code "nodes":}, or null. */
  private RecallSnapshots.Record sizes(String ns) {
    long nodes = integer();
    long edges = skip(",\"edges\":") ? integer() : -1;
    if (nodes < 0 || edges < 0 || nodes > Integer.MAX_VALUE || edges > Integer.MAX_VALUE) {
      return null;
    }
    if (!skip("}") || i != end) {
      return null;
    }
    return new RecallSnapshots.Record(
        ns, null, null, null, null, null, null, null, (int) nodes, (int) edges);
  }

  private MemoryNode node() {
    if (!skip("{\"id\":")) {
      return null;
    }
    String id = string();
    if (id == null || !skip(",\"type\":")) {
      return null;
    }
    String type = type();
    if (type == null || !skip(",\"content\":")) {
      return null;
    }
    String content = string();
    if (content == null || !skip(",\"attributes\":{")) {
      return null;
    }
    Map<String, String> attributes = Map.of();
    if (!skip("}")) {
      attributes = new HashMap<>();
      do {
        String key = string();
        if (key == null || !skip(":")) {
          return null;
        }
        String value = string();
        if (value == null || attributes.put(key, value) != null) {
          return null; // a repeated key: Jackson's path decides which wins
        }
      } while (skip(","));
      if (!skip("}")) {
        return null;
      }
    }
    double importance = number(",\"importance\":");
    double risk = number(",\"risk\":");
    double novelty = number(",\"novelty\":");
    double confidence = number(",\"confidence\":");
    if (Double.isNaN(importance + risk + novelty + confidence) || !skip(",\"usage_count\":")) {
      return null;
    }
    long usage = integer();
    double decay = number(",\"decay_factor\":");
    if (usage < 0 || Double.isNaN(decay) || !skip("}")) {
      return null;
    }
    return new MemoryNode(
        id,
        type,
        content,
        attributes,
        importance,
        risk,
        novelty,
        confidence,
        usage,
        decay,
        Optional.empty(),
        List.of());
  }

  /** Reads an edge without source into the reader's edge fields; false if it is not one. */
  private boolean edge() {
    if (!skip("{\"from\":")) {
      return false;
    }
    fromStart = stringEnd();
    fromLen = i - 1 - fromStart;
    if (fromStart < 0 || !skip(",\"to\":")) {
      return false;
    }
    toStart = stringEnd();
    toLen = i - 1 - toStart;
    if (toStart < 0 || !skip(",\"edge_type\":")) {
      return false;
    }
    edgeType = type();
    edgeWeight = number(",\"weight\":");
    edgeConfidence = number(",\"confidence\":");
    if (edgeType == null
        || Double.isNaN(edgeWeight + edgeConfidence)
        || !skip(",\"bidirectional\":")) {
      return false;
    }
    if (skip("true")) {
      edgeBoth = true;
    } else if (skip("false")) {
      edgeBoth = false;
    } else {
      return false;
    }
    return skip("}");
  }

  /**
   * The edge read last, its ends the ids of the nodes at {@code fromNode} and {@code toNode} of
   * {@code ns} when those are the edge's (not copied again), else strings of their own.
   */
  private MemoryEdge edge(String ns, int fromNode, int toNode) {
    String from = end(ns, fromNode, fromStart, fromLen);
    String to = end(ns, toNode, toStart, toLen);
    return new MemoryEdge(
        from, to, edgeType, edgeWeight, edgeConfidence, edgeBoth, Optional.empty());
  }

  private String end(String ns, int ordinal, int start, int len) {
    if (ids != null && ordinal >= 0) {
      String id = ids.idAt(ns, ordinal);
      if (id != null && sameAscii(id, start, len)) {
        return id;
      }
    }
    return new String(b, start, len, ISO_8859_1);
  }

  /** Whether {@code len} bytes of {@code b} from {@code start} are the characters of {@code s}. */
  private boolean sameAscii(String s, int start, int len) {
    if (s.length() != len) {
      return false;
    }
    for (int k = 0; k < len; k++) {
      if (b[start + k] != s.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /** The namespace name at {@code i}, the previous record's string when the same; or null. */
  private String namespace() {
    int start = stringEnd();
    if (start < 0) {
      return null;
    }
    if (!sameAscii(lastNs, start, i - 1 - start)) {
      lastNs = new String(b, start, i - 1 - start, ISO_8859_1);
    }
    return lastNs;
  }

  private boolean skip(String mark) {
    int n = mark.length();
    if (end - i < n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (b[i + k] != mark.charAt(k)) {
        return false;
      }
    }
    i += n;
    return true;
  }

  /** A string of printable ASCII without escapes at {@code i}, or null. */
  private String string() {
    int start = stringEnd();
    return start < 0 ? null : new String(b, start, i - 1 - start, ISO_8859_1);
  }

  /** A type name (a few per graph, on every record), shared rather than copied. */
  private String type() {
    int start = stringEnd();
    if (start < 0) {
      return null;
    }
    int len = i - 1 - start;
    if (types == null) {
      return new String(b, start, len, ISO_8859_1);
    }
    for (String t : recentTypes) {
      if (t == null) {
        break;
      }
      if (sameAscii(t, start, len)) {
        return t;
      }
    }
    String t = new String(b, start, len, ISO_8859_1);
    String known = types.putIfAbsent(t, t);
    if (known != null) {
      return known;
    }
    for (int k = 0; k < recentTypes.length; k++) {
      if (recentTypes[k] == null) {
        recentTypes[k] = t;
        break;
      }
    }
    return t;
  }

  /**
   * Moves past a string of printable ASCII without escapes at {@code i}; returns where its text
   * starts, or -1 (and {@code i} is then of no use).
   */
  private int stringEnd() {
    if (i >= end || b[i] != '"') {
      return -1;
    }
    int start = i + 1;
    for (int k = start; k < end; k++) {
      byte c = b[k];
      if (c == '"') {
        i = k + 1;
        return start;
      }
      if (c < 0x20 || c == '\\' || c == 0x7F) {
        return -1; // an escape, a control or a byte of a longer UTF-8 sequence (negative)
      }
    }
    return -1;
  }

  /** The time string at {@code i}; the previous record's instant when the text is the same. */
  private Instant instant() {
    int start = stringEnd();
    if (start < 0) {
      return null;
    }
    int n = i - 1 - start;
    if (n != lastAt.length || !java.util.Arrays.equals(b, start, start + n, lastAt, 0, n)) {
      lastInstant = Instant.parse(new String(b, start, n, ISO_8859_1));
      lastAt = java.util.Arrays.copyOfRange(b, start, start + n);
    }
    return lastInstant;
  }

  /** A non-negative integer of at most 18 digits without a leading zero, or -1. */
  private long integer() {
    int start = i;
    long v = 0;
    while (i < end && i - start < 18 && b[i] >= '0' && b[i] <= '9') {
      v = v * 10 + (b[i++] - '0');
    }
    boolean more = i < end && (b[i] >= '0' && b[i] <= '9' || b[i] == '.' || b[i] == 'e');
    return i == start || more || b[start] == '0' && i - start > 1 ? -1 : v;
  }

  /** The JSON number after {@code mark}, or NaN if the mark or a number is not there. */
  private double number(String mark) {
    if (!skip(mark)) {
      return Double.NaN;
    }
    int start = i;
    if (i < end && b[i] == '-') {
      i++;
    }
    int intStart = i;
    digits();
    if (i == intStart || b[intStart] == '0' && i - intStart > 1) {
      return Double.NaN;
    }
    int fraction = 0;
    if (i < end && b[i] == '.') {
      i++;
      fraction = digits();
      if (fraction == 0) {
        return Double.NaN;
      }
    }
    boolean exponent = i < end && (b[i] == 'e' || b[i] == 'E');
    if (exponent) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      if (digits() == 0) {
        return Double.NaN;
      }
    }
    if (i - start > 100) {
      return Double.NaN;
    }
    if (!exponent && fraction <= 22 && i - intStart - (fraction > 0 ? 1 : 0) <= 17) {
      // Clinger's fast path: digits that fit a double exactly, divided by an exact power of ten,
      // is the correctly rounded value (one IEEE division), as Double.parseDouble gives
      long m = 0;
      for (int k = intStart; k < i; k++) {
        if (b[k] != '.') {
          m = m * 10 + (b[k] - '0');
        }
      }
      if (m <= 1L << 53) {
        double v = (double) m / POW10[fraction];
        return b[start] == '-' ? -v : v;
      }
    }
    return com.fasterxml.jackson.core.io.NumberInput.parseDouble(
        new String(b, start, i - start, ISO_8859_1), true);
  }

  private static final double[] POW10 = new double[23];

  static {
    POW10[0] = 1;
    for (int k = 1; k < POW10.length; k++) {
      POW10[k] = POW10[k - 1] * 10; // exact up to 10^22
    }
  }

  private int digits() {
    int start = i;
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i - start;
  }
}
