package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The cross-lineage audit outcome of a trace (spec section 2.3, {@code audit_consensus}). Unknown
 * JSON fields are ignored.
 *
 * <p>The spec names the fields ({@code pass, models, disagreements}) but not the type of {@code
 * disagreements}; this implementation reads it as a list of disagreement descriptions.
 *
 * @param pass whether the audit passed
 * @param models the auditing models
 * @param disagreements the disagreements between them, as text
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"pass", "models", "disagreements"})
public record AuditConsensus(
    @JsonProperty("pass") boolean pass,
    @JsonProperty("models") List<String> models,
    @JsonProperty("disagreements") List<String> disagreements) {

  /** Copies the lists. */
  public AuditConsensus {
    models = List.copyOf(models);
    disagreements = List.copyOf(disagreements);
  }
}
