package dev.loci.subjects.internal;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.loci.internal.Timestamps;
import java.time.Instant;
import java.util.List;

/**
 * One entry of a subject's audit log before it is chained: everything in it comes from one journal
 * batch, so replaying the journal makes the same entry again.
 *
 * @param ref the subject's reference (see {@link SubjectLayer#ref})
 * @param n the entry's number in the subject's log, from 1
 * @param seq the journal batch it records
 * @param at the batch's time
 * @param actor who wrote the batch, or {@code legal:<holder>} for a legal read
 * @param namespace the batch's namespace
 * @param action what happened: event types, {@code legal_read:<what>}, {@code policy_set}, {@code
 *     erased}, {@code expired}
 * @param records the records it touched, each {@code kind}, {@code id}, {@code version}
 */
record AuditEntry(
    String ref,
    long n,
    long seq,
    Instant at,
    String actor,
    String namespace,
    String action,
    List<Touched> records) {

  /** A record an entry touched. */
  record Touched(String kind, String id, long version) {}

  /**
   * Appends the entry's fields as an unclosed JSON object, in a fixed order, to {@code out}: the
   * line's start, before key, prev and mac. Written by hand, not through a tree and a generator:
   * the audit writer makes one per subject per write, and building the tree cost more than signing.
   * The text is what Jackson writes for the same fields.
   */
  StringBuilder head(StringBuilder out) {
    return head(out, new Times());
  }

  /** Like {@link #head(StringBuilder)}, with {@code times} formatting the time. */
  StringBuilder head(StringBuilder out, Times times) {
    out.append("{\"n\":").append(n).append(",\"seq\":").append(seq).append(",\"at\":\"");
    times.append(out, at).append('"');
    field(out, "actor", actor);
    field(out, "ns", namespace);
    field(out, "action", action);
    out.append(",\"records\":[");
    for (int i = 0; i < records.size(); i++) {
      Touched t = records.get(i);
      out.append(i == 0 ? "{" : ",{").append("\"kind\":");
      string(out, t.kind());
      out.append(",\"id\":");
      string(out, t.id());
      if (t.version() > 0) {
        out.append(",\"version\":").append(t.version());
      }
      out.append('}');
    }
    return out.append(']');
  }

  /** Appends {@code ,"name":value} with the value as a JSON string (or null). */
  static StringBuilder field(StringBuilder out, String name, String value) {
    out.append(",\"").append(name).append("\":");
    return string(out, value);
  }

  /** Appends {@code value} as a JSON string, escaped as Jackson escapes it, or {@code null}. */
  static StringBuilder string(StringBuilder out, String value) {
    if (value == null) {
      return out.append("null");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\') {
        return out.append('"').append(ESCAPER.quoteAsString(value)).append('"');
      }
    }
    return out.append('"').append(value).append('"');
  }

  private static final JsonStringEncoder ESCAPER = JsonStringEncoder.getInstance();

  /**
   * Formats times as {@link Timestamps#append} does, keeping the text up to the fraction of the
   * last second it formatted: the entries of one append mostly share their second. Not thread-safe.
   */
  static final class Times {
    private long second = Long.MIN_VALUE;
    private String upToFraction; // "2026-11-26T06:00:00." of that second

    StringBuilder append(StringBuilder out, Instant t) {
      if (t.getEpochSecond() != second) {
        String whole =
            Timestamps.append(new StringBuilder(32), Instant.ofEpochSecond(t.getEpochSecond()))
                .toString();
        int dot = whole.lastIndexOf('.');
        if (dot < 0 || whole.length() - dot != 8) {
          return Timestamps.append(out, t); // a year the short form does not cover
        }
        second = t.getEpochSecond();
        upToFraction = whole.substring(0, dot + 1);
      }
      int nanos = t.getNano();
      out.append(upToFraction);
      if (nanos % 1000 == 0) {
        digits(out, nanos / 1000, 100_000);
      } else {
        digits(out, nanos, 100_000_000);
      }
      return out.append('Z');
    }

    private static void digits(StringBuilder out, int value, int scale) {
      for (; scale > 0; scale /= 10) {
        out.append((char) ('0' + value / scale % 10));
      }
    }
  }
}
