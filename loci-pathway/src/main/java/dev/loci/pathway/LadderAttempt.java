package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import java.util.Optional;

/**
 * One model + rung attempt of the review ladder (spec section 2.3, {@code ladder_attempts}).
 * Unknown JSON fields are ignored.
 *
 * @param rung the ladder rung, at least 0
 * @param model the model that was tried; one {@code model:} token of {@code pathway_vec} each
 * @param latencyMs how long the attempt took, at least 0
 * @param accepted whether the attempt's output was accepted
 * @param rejectReason why it was rejected; absent (omitted on the wire) when not given
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"rung", "model", "latency_ms", "accepted", "reject_reason"})
public record LadderAttempt(
    @JsonProperty("rung") int rung,
    @JsonProperty("model") String model,
    @JsonProperty("latency_ms") long latencyMs,
    @JsonProperty("accepted") boolean accepted,
    @JsonProperty("reject_reason") @JsonInclude(JsonInclude.Include.NON_ABSENT)
        Optional<String> rejectReason) {

  /** Checks presence and ranges. */
  public LadderAttempt {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(rejectReason, "reject_reason");
    if (rung < 0) {
      throw new IllegalArgumentException("rung must be at least 0, found " + rung);
    }
    if (latencyMs < 0) {
      throw new IllegalArgumentException("latency_ms must be at least 0, found " + latencyMs);
    }
    // a handful of models and reasons repeat across every trace: one copy each in the heap
    model = model.intern();
    rejectReason = rejectReason.map(String::intern);
  }
}
