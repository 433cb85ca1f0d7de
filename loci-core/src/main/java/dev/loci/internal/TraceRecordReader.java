package dev.loci.internal;

import dev.loci.Namespace;
import dev.loci.Trace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fast path of {@link TraceRecords}: reads a trace event or snapshot record laid out exactly as
 * {@link TraceRecords#appendJson} writes it ({@code uid}, {@code content}, {@code predecessor_uid}
 * if any, {@code created_at}, {@code updated_at}, {@code retired}, {@code replay_count}, {@code
 * tags}, then {@code ns} in a snapshot; no whitespace) straight from its characters. Replay reads a
 * million of them, and a Jackson parser for each cost a quarter of the replay.
 *
 * <p>It answers null for anything else (another order, another field, a value of another kind), and
 * the caller parses the text with Jackson as before; so a record this path reads gives the trace
 * Jackson's path would give.
 */
final class TraceRecordReader {
  private final String s;
  private int i;

  private TraceRecordReader(String s) {
    this.s = s;
  }

  /**
   * Reads {@code json}, or returns null if it is not in the written form.
   *
   * @param given the batch's namespace for an event (which has no {@code ns}), null for a snapshot
   *     record (which must have one)
   * @param namespaces parsed namespaces, reused across records
   * @param at a time the trace probably holds (its batch's), reused instead of an equal copy
   */
  static Trace read(String json, Namespace given, Map<String, Namespace> namespaces, Instant at) {
    try {
      return new TraceRecordReader(json).trace(given, namespaces, at);
    } catch (RuntimeException e) {
      return null; // a bad time or namespace: the full path reports it
    }
  }

  private Trace trace(Namespace given, Map<String, Namespace> namespaces, Instant at) {
    if (!skip("{\"uid\":")) {
      return null;
    }
    String uid = string();
    if (uid == null || !skip(",\"content\":")) {
      return null;
    }
    String content = string();
    if (content == null) {
      return null;
    }
    String predecessor = null;
    if (skip(",\"predecessor_uid\":")) {
      predecessor = string();
      if (predecessor == null) {
        return null;
      }
    }
    if (!skip(",\"created_at\":")) {
      return null;
    }
    Instant created = instant(at);
    if (created == null || !skip(",\"updated_at\":")) {
      return null;
    }
    Instant updated = instant(created);
    if (updated == null || !skip(",\"retired\":")) {
      return null;
    }
    boolean retired;
    if (skip("true")) {
      retired = true;
    } else if (skip("false")) {
      retired = false;
    } else {
      return null;
    }
    if (!skip(",\"replay_count\":")) {
      return null;
    }
    int replayCount = count();
    if (replayCount < 1 || !skip(",\"tags\":[")) {
      return null;
    }
    List<String> tags = tags();
    if (tags == null) {
      return null;
    }
    Namespace namespace = given;
    if (given == null) {
      String ns = skip(",\"ns\":") ? string() : null;
      if (ns == null) {
        return null;
      }
      namespace = JournalLines.namespace(namespaces, ns);
    }
    if (!skip("}") || i != s.length()) {
      return null;
    }
    return new Trace(
        uid,
        namespace,
        content,
        Optional.ofNullable(predecessor),
        created,
        updated,
        retired,
        replayCount,
        tags);
  }

  /**
   * The tags array whose {@code [} is just before {@code i}, as an immutable list: the same
   * instance as a recent record with the same tags, since a store's traces mostly share a few tag
   * sets, and a million copies of them would be a fifth of the traces' memory.
   */
  private List<String> tags() {
    int open = i - 1;
    int close = s.indexOf(']', i);
    int length = close + 1 - open;
    int slot = 0;
    if (close > 0 && length <= MAX_CACHED_TAGS) {
      int h = 0;
      for (int k = open; k <= close; k++) {
        h = 31 * h + s.charAt(k);
      }
      slot = (h ^ h >>> 16) & (RECENT_TAGS.length - 1);
      TagSet recent = RECENT_TAGS[slot];
      if (recent != null
          && recent.json().length() == length
          && s.regionMatches(open, recent.json(), 0, length)) {
        i = close + 1;
        return recent.tags();
      }
    }
    List<String> tags = new ArrayList<>(2);
    if (!skip("]")) {
      do {
        String tag = string();
        if (tag == null) {
          return null;
        }
        tags.add(tag);
      } while (skip(","));
      if (!skip("]")) {
        return null;
      }
    }
    List<String> copy = List.copyOf(tags);
    if (i == close + 1 && length <= MAX_CACHED_TAGS) {
      RECENT_TAGS[slot] = new TagSet(s.substring(open, i), copy);
    }
    return copy;
  }

  /** A tags array as written and as read; immutable, so threads may share it without locks. */
  private record TagSet(String json, List<String> tags) {}

  private static final int MAX_CACHED_TAGS = 512;
  private static final TagSet[] RECENT_TAGS = new TagSet[64];

  private boolean skip(String mark) {
    if (s.startsWith(mark, i)) {
      i += mark.length();
      return true;
    }
    return false;
  }

  /** A time string; {@code same} if it is equal to it, so equal times share one instance. */
  private Instant instant(Instant same) {
    int start = i + 1;
    String text = string();
    if (text == null) {
      return null;
    }
    if (i - start - 1 != text.length()) {
      return null; // it held an escape: not the written form
    }
    return Timestamps.parse(text, same);
  }

  /** A positive int, no leading zero; -1 if there is none. */
  private int count() {
    int start = i;
    long v = 0;
    while (i < s.length() && i - start < 11 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      v = v * 10 + (s.charAt(i++) - '0');
    }
    return i == start || s.charAt(start) == '0' || v > Integer.MAX_VALUE ? -1 : (int) v;
  }

  /** A JSON string at {@code i}, unescaped, or null if there is none or it is not valid. */
  private String string() {
    int n = s.length();
    if (i >= n || s.charAt(i) != '"') {
      return null;
    }
    int start = i + 1;
    int k = start;
    char c = 0;
    while (k < n && (c = s.charAt(k)) != '"' && c != '\\' && c >= 0x20) {
      k++;
    }
    if (k < n && c == '"') {
      i = k + 1;
      return s.substring(start, k);
    }
    // an escape: find the closing quote first, so the text is built in one buffer of its size
    int close = k;
    while (close < n && (c = s.charAt(close)) != '"') {
      close += c == '\\' ? 2 : 1;
    }
    StringBuilder sb = new StringBuilder(Math.min(close, n) - start);
    int run = start;
    while (k < n) {
      c = s.charAt(k);
      if (c == '"') {
        i = k + 1;
        return sb.append(s, run, k).toString();
      }
      if (c < 0x20) {
        return null; // a raw control character is not JSON
      }
      if (c != '\\') {
        k++;
        continue;
      }
      sb.append(s, run, k);
      int length = Json.unescape(s, k, sb);
      if (length < 0) {
        return null;
      }
      k += length;
      run = k;
    }
    return null;
  }
}
