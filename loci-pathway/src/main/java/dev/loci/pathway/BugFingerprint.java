package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A structural pattern the reviewer caught (spec section 2.5, {@code bug_fingerprints}). Unknown
 * JSON fields are ignored.
 *
 * @param flag the semantic flag of the pattern; one {@code flag:<wire name>} token of {@code
 *     pathway_vec} each
 * @param patternKey the structural pattern hash
 * @param example an example occurrence, as text
 * @param occurrences how many times the pattern occurred, at least 0
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"flag", "pattern_key", "example", "occurrences"})
public record BugFingerprint(
    @JsonProperty("flag") SemanticFlag flag,
    @JsonProperty("pattern_key") String patternKey,
    @JsonProperty("example") String example,
    @JsonProperty("occurrences") int occurrences) {

  /** Checks presence and ranges. */
  public BugFingerprint {
    Objects.requireNonNull(flag, "flag");
    Objects.requireNonNull(patternKey, "pattern_key");
    Objects.requireNonNull(example, "example");
    if (occurrences < 0) {
      throw new IllegalArgumentException("occurrences must be at least 0, found " + occurrences);
    }
  }
}
