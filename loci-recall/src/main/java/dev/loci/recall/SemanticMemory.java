package dev.loci.recall;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A general fact: a clause, a runbook step, or a summary consolidation made of repeated episodes
 * (then {@code sources} names them, each linked by {@code summarizes}).
 *
 * @param id the node id
 * @param content the fact
 * @param spaceId the space it is located in, if any
 * @param sources the episodic memories it summarizes; empty for an ingested fact
 * @param lifecycle its lifecycle when read
 * @param links its links
 */
public record SemanticMemory(
    String id,
    String content,
    Optional<String> spaceId,
    List<String> sources,
    MemoryState lifecycle,
    List<MemoryLink> links)
    implements PalaceMemory {
  /** Checks presence and copies the lists. */
  public SemanticMemory {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(spaceId, "spaceId");
    sources = List.copyOf(sources);
    Objects.requireNonNull(lifecycle, "lifecycle");
    links = List.copyOf(links);
  }

  @Override
  public String kind() {
    return "semantic";
  }
}
