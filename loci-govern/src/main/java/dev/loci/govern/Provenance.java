package dev.loci.govern;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a memory came from.
 *
 * @param actor who wrote it (the journal's actor: {@code token:<id>}, {@code local}, ...)
 * @param rule the extraction rule that proposed it, if a rule did
 * @param sourceInteraction the interaction it was extracted from, if any
 * @param sourceChunk the document chunk it was extracted from, if any
 * @param extractorVersion the extractor's version, if an extractor proposed it
 */
public record Provenance(
    String actor,
    Optional<String> rule,
    Optional<String> sourceInteraction,
    Optional<String> sourceChunk,
    Optional<String> extractorVersion) {
  /** Checks presence. */
  public Provenance {
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(sourceInteraction, "sourceInteraction");
    Objects.requireNonNull(sourceChunk, "sourceChunk");
    Objects.requireNonNull(extractorVersion, "extractorVersion");
  }

  /** Written directly by {@code actor}, not extracted. */
  public static Provenance of(String actor) {
    return new Provenance(
        actor, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }
}
