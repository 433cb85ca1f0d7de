package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * An external-documentation lookup (context7-style) made during the trace (spec section 2.3, {@code
 * bridge_hits}). Unknown JSON fields are ignored.
 *
 * @param library the library looked up
 * @param version the library version looked up
 * @param resultSummary a summary of what the lookup returned
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"library", "version", "result_summary"})
public record BridgeHit(
    @JsonProperty("library") String library,
    @JsonProperty("version") String version,
    @JsonProperty("result_summary") String resultSummary) {

  /** Checks presence. */
  public BridgeHit {
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(resultSummary, "result_summary");
  }
}
