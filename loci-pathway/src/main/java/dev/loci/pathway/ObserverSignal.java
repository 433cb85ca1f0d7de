package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * A behavior label the observer emitted during the pathway's run (spec section 2.3, {@code
 * observer_signals}). Unknown JSON fields are ignored.
 *
 * <p>The spec names the fields ({@code class, priors, prior_iter_outcomes}) but not their types.
 * This implementation reads {@code priors} as a count of prior observations of the class and {@code
 * prior_iter_outcomes} as the outcome labels of the prior iterations, in order.
 *
 * @param label the signal class (JSON {@code class}); one {@code signal:} token of {@code
 *     pathway_vec} each
 * @param priors how many prior observations of this class there were, at least 0
 * @param priorIterOutcomes the outcome labels of prior iterations, in order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"class", "priors", "prior_iter_outcomes"})
public record ObserverSignal(
    @JsonProperty("class") String label,
    @JsonProperty("priors") int priors,
    @JsonProperty("prior_iter_outcomes") List<String> priorIterOutcomes) {

  /** Checks presence and ranges, and copies the outcome list. */
  public ObserverSignal {
    Objects.requireNonNull(label, "class");
    if (priors < 0) {
      throw new IllegalArgumentException("priors must be at least 0, found " + priors);
    }
    // labels and outcomes ("pass", "fail") repeat across traces: one copy each in the heap
    label = label.intern();
    priorIterOutcomes = priorIterOutcomes.stream().map(String::intern).toList();
  }
}
