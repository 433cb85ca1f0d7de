package dev.loci.server;

import dev.loci.internal.TraceLayer;
import dev.loci.recall.IngestLimits;
import dev.loci.server.spi.JsonBody;

/**
 * How much one request may ask of the server, beyond its body size ({@link
 * ServerConfig.BodyLimits}): the shape of its JSON, the size of an ingest, and how slowly its body
 * may arrive. Every limit is checked before anything is written and answered with a problem that
 * names it (the {@code [limits]} key); docs/limits.md lists them all. Immutable.
 *
 * @param jsonDepth the deepest nesting of arrays and objects in a JSON body ({@code json_depth})
 * @param jsonStringChars the longest string, member names included, in a JSON body ({@code
 *     json_string_chars})
 * @param jsonArrayItems the most items of one array in a JSON body, trace content included ({@code
 *     json_array_items})
 * @param tagsPerTrace the most tags one trace may carry ({@code tags_per_trace}, at most {@value
 *     TraceLayer#MAX_TAGS})
 * @param ingest what one ingest may write ({@code ingest_*})
 * @param bodyIdleMillis how long the server waits for the next byte of a body, or of a request on
 *     an idle connection ({@code body_idle_ms})
 * @param bodyMinBytesPerSecond the slowest a body may arrive, measured from its first byte ({@code
 *     body_min_bytes_per_second}); 0 turns the check off
 * @param recallQueryTerms the most distinct words a recall query may hold ({@code
 *     recall_query_terms}); within it, the text search keeps the rarest 1,000 present terms
 * @param bodyWaitMillis the longest the server's reads of one body may wait for its bytes in all
 *     ({@code body_wait_ms}): with the minimum rate, it bounds the time a body may take however
 *     large; 0 turns the check off
 */
public record RequestLimits(
    int jsonDepth,
    int jsonStringChars,
    int jsonArrayItems,
    int tagsPerTrace,
    IngestLimits ingest,
    long bodyIdleMillis,
    long bodyMinBytesPerSecond,
    int recallQueryTerms,
    long bodyWaitMillis) {

  /** The default of {@code recall_query_terms}. */
  public static final int DEFAULT_RECALL_QUERY_TERMS = 10_000;

  /** The default of {@code body_wait_ms}: five minutes. */
  public static final long DEFAULT_BODY_WAIT_MILLIS = 300_000;

  /** Checks every limit is in range. */
  public RequestLimits {
    check("json_depth", jsonDepth, 1, JsonBody.Limits.MAX_DEPTH);
    check("json_string_chars", jsonStringChars, 1, Integer.MAX_VALUE);
    check("json_array_items", jsonArrayItems, 1, Integer.MAX_VALUE);
    check("tags_per_trace", tagsPerTrace, 0, TraceLayer.MAX_TAGS);
    java.util.Objects.requireNonNull(ingest, "ingest");
    check("body_idle_ms", bodyIdleMillis, 100, 3_600_000);
    check("body_min_bytes_per_second", bodyMinBytesPerSecond, 0, Integer.MAX_VALUE);
    check("recall_query_terms", recallQueryTerms, 1, 1_000_000);
    check("body_wait_ms", bodyWaitMillis, 0, 86_400_000);
  }

  /** The limits with {@code recall_query_terms} and {@code body_wait_ms} at their defaults. */
  public RequestLimits(
      int jsonDepth,
      int jsonStringChars,
      int jsonArrayItems,
      int tagsPerTrace,
      IngestLimits ingest,
      long bodyIdleMillis,
      long bodyMinBytesPerSecond) {
    this(
        jsonDepth,
        jsonStringChars,
        jsonArrayItems,
        tagsPerTrace,
        ingest,
        bodyIdleMillis,
        bodyMinBytesPerSecond,
        DEFAULT_RECALL_QUERY_TERMS,
        DEFAULT_BODY_WAIT_MILLIS);
  }

  /** The same limits with {@code recall_query_terms} set to {@code terms}. */
  public RequestLimits withRecallQueryTerms(int terms) {
    return new RequestLimits(
        jsonDepth,
        jsonStringChars,
        jsonArrayItems,
        tagsPerTrace,
        ingest,
        bodyIdleMillis,
        bodyMinBytesPerSecond,
        terms,
        bodyWaitMillis);
  }

  /** The same limits with {@code body_wait_ms} set to {@code millis}. */
  public RequestLimits withBodyWaitMillis(long millis) {
    return new RequestLimits(
        jsonDepth,
        jsonStringChars,
        jsonArrayItems,
        tagsPerTrace,
        ingest,
        bodyIdleMillis,
        bodyMinBytesPerSecond,
        recallQueryTerms,
        millis);
  }

  /**
   * The defaults: nesting 64, strings of 16 Mi characters (the default body cap, so an ingested
   * document is held to its own byte limit first), 10,000 items per array, 256 tags, {@link
   * IngestLimits#defaults()}, 10 s without a byte, 1 KiB/s, 10,000 distinct words per recall query,
   * 5 minutes of waiting for one body.
   */
  public static RequestLimits defaults() {
    return new RequestLimits(
        64, 16 << 20, 10_000, TraceLayer.MAX_TAGS, IngestLimits.defaults(), 10_000, 1_024);
  }

  /**
   * Refuses a recall query of more than {@link #recallQueryTerms()} distinct words with a 413
   * naming {@code recall_query_terms}: every route or tool that recalls on a client's behalf (HTTP,
   * MCP) checks its query here before recalling.
   *
   * @throws dev.loci.LimitExceededException if the query holds more
   */
  public void checkRecallQuery(String query) {
    checkRecallQueryTerms(query, recallQueryTerms);
  }

  /**
   * Refuses a query of more than {@code max} distinct words (runs of letters and digits, any case)
   * naming {@code recall_query_terms}; counting stops at the first word past the limit.
   *
   * @throws dev.loci.LimitExceededException if the query holds more
   */
  public static void checkRecallQueryTerms(String query, int max) {
    java.util.Set<String> words = new java.util.HashSet<>();
    int n = query.length();
    int i = 0;
    while (i < n) {
      int c = query.codePointAt(i);
      if (!Character.isLetterOrDigit(c)) {
        i += Character.charCount(c);
        continue;
      }
      int start = i;
      while (i < n && Character.isLetterOrDigit(query.codePointAt(i))) {
        i += Character.charCount(query.codePointAt(i));
      }
      if (words.add(query.substring(start, i).toLowerCase(java.util.Locale.ROOT))
          && words.size() > max) {
        throw new dev.loci.LimitExceededException(
            "query",
            "recall_query_terms",
            false,
            "expected at most " + max + " distinct words in a recall query, found more");
      }
    }
  }

  private static void check(String key, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "limits." + key + ": expected " + min + " to " + max + ", found " + value);
    }
  }
}
