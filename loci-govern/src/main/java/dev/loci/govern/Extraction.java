package dev.loci.govern;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one extraction pass did: the candidates it proposed (new, or existing ones reinforced), the
 * memories it graduated because an entity it proposed matched them, and how many proposals the cap
 * of 50 per pass left out.
 *
 * @param interaction the interaction the pass read, if it read one
 * @param wave the ingestion wave's id, for a pass over a wave
 * @param extractorVersion the extractor's version
 * @param candidates the candidates, memory and entity, in the order proposed
 * @param graduated memories graduated into an entity candidate by this pass
 * @param overCap proposals left out by the cap
 */
public record Extraction(
    Optional<Interaction> interaction,
    Optional<String> wave,
    String extractorVersion,
    List<Candidate> candidates,
    List<Memory> graduated,
    int overCap) {
  /** The most candidates one pass proposes. */
  public static final int CAP = 50;

  /** Checks presence and copies the lists. */
  public Extraction {
    Objects.requireNonNull(interaction, "interaction");
    Objects.requireNonNull(wave, "wave");
    Objects.requireNonNull(extractorVersion, "extractorVersion");
    candidates = List.copyOf(candidates);
    graduated = List.copyOf(graduated);
  }
}
