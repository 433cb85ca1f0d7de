package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * Schema or type context fed to the reviewer (spec section 2.5, {@code type_hints_used}). Unknown
 * JSON fields are ignored.
 *
 * @param source where the hint came from
 * @param symbol the symbol it describes
 * @param typeRepr the type, as text
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"source", "symbol", "type_repr"})
public record TypeHint(
    @JsonProperty("source") String source,
    @JsonProperty("symbol") String symbol,
    @JsonProperty("type_repr") String typeRepr) {

  /** Checks presence. */
  public TypeHint {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(symbol, "symbol");
    Objects.requireNonNull(typeRepr, "type_repr");
  }
}
