package dev.loci.pathway;

import dev.loci.InvalidRequestException;
import dev.loci.pathway.internal.PathwayJson;

/**
 * The pathway wire format for callers outside the engine (the command line, the HTTP server): JSON
 * with the spec's snake_case field names, the same text the journal and the Rust state file hold.
 */
public final class PathwayWire {
  private PathwayWire() {}

  /**
   * Writes a public pathway value ({@link PathwayTrace}, {@link PathwayWrite}, {@link ScoredTrace},
   * {@link PathwayStats}, {@link PathwayImportReport}, {@link RedactionPolicy}, or a list of them)
   * as compact JSON.
   */
  public static String write(Object value) {
    if (value instanceof RedactionPolicy policy) {
      return policy.toJson();
    }
    return PathwayJson.write(value);
  }

  /**
   * Reads {@code json} as a {@code type}.
   *
   * @throws InvalidRequestException naming the offending field, or {@code trace} if the text is not
   *     JSON
   */
  public static <T> T read(String json, Class<T> type) {
    return PathwayJson.read(json, type);
  }

  /**
   * Reads a {@code pathway_vec} query: a JSON array of numbers (its length and values are checked
   * by the query).
   *
   * @throws InvalidRequestException naming {@code pathway_vec} if the text is not an array of
   *     numbers
   */
  public static float[] readVector(String json) {
    return PathwayJson.readVector(json);
  }
}
