package dev.loci.server;

import dev.loci.recall.IngestLimits;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.tomlj.TomlTable;

/** Reads the {@code [limits]} table of {@code loci.toml} beyond the body caps. */
final class LimitsTable {
  /** Every key the table may hold; any other is refused, so a misspelt limit is not ignored. */
  static final Set<String> KEYS =
      Set.of(
          "body_bytes",
          "body_bytes_by_prefix",
          "json_depth",
          "json_string_chars",
          "json_array_items",
          "tags_per_trace",
          "ingest_bytes_per_document",
          "ingest_documents_per_request",
          "ingest_units_per_document",
          "ingest_edges_per_document",
          "body_idle_ms",
          "body_min_bytes_per_second",
          "recall_query_terms",
          "body_wait_ms");

  private LimitsTable() {}

  /**
   * The request limits of {@code limits}, each absent key at its default.
   *
   * @throws IllegalArgumentException naming the key of an unknown, mistyped or out-of-range limit
   */
  static RequestLimits read(TomlTable limits) {
    for (String key : limits.keySet()) {
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException(
            "limits." + key + ": unknown limit; expected one of " + new TreeSet<>(KEYS));
      }
    }
    RequestLimits d = RequestLimits.defaults();
    IngestLimits di = d.ingest();
    for (String key : KEYS) {
      if (key.startsWith("ingest_") && limits.get(List.of(key)) instanceof Long l && l < 1) {
        throw new IllegalArgumentException("limits." + key + ": expected 1 or more, found " + l);
      }
    }
    IngestLimits ingest =
        new IngestLimits(
            get(limits, "ingest_bytes_per_document", di.bytesPerDocument()),
            toInt(limits, "ingest_documents_per_request", di.documentsPerRequest()),
            toInt(limits, "ingest_units_per_document", di.unitsPerDocument()),
            toInt(limits, "ingest_edges_per_document", di.edgesPerDocument()));
    return new RequestLimits(
        toInt(limits, "json_depth", d.jsonDepth()),
        toInt(limits, "json_string_chars", d.jsonStringChars()),
        toInt(limits, "json_array_items", d.jsonArrayItems()),
        toInt(limits, "tags_per_trace", d.tagsPerTrace()),
        ingest,
        get(limits, "body_idle_ms", d.bodyIdleMillis()),
        get(limits, "body_min_bytes_per_second", d.bodyMinBytesPerSecond()),
        toInt(limits, "recall_query_terms", d.recallQueryTerms()),
        get(limits, "body_wait_ms", d.bodyWaitMillis()));
  }

  private static int toInt(TomlTable t, String key, int dflt) {
    long v = get(t, key, dflt);
    if (v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "limits." + key + ": expected at most " + Integer.MAX_VALUE + ", found " + v);
    }
    return (int) v;
  }

  private static long get(TomlTable t, String key, long dflt) {
    Object v = t.get(List.of(key));
    if (v == null) {
      return dflt;
    }
    if (!(v instanceof Long l)) {
      throw new IllegalArgumentException("limits." + key + ": expected an integer, found " + v);
    }
    if (l < 0) {
      throw new IllegalArgumentException("limits." + key + ": expected 0 or more, found " + l);
    }
    return l;
  }
}
