package dev.loci.recall;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What happened, when and to whom: a conversation turn, an observation.
 *
 * @param id the node id
 * @param content what happened
 * @param spaceId the session (or other space) it happened in
 * @param when when it happened, as the source gives it, if known
 * @param who who said or did it, if known
 * @param lifecycle its lifecycle when read
 * @param links its links
 */
public record EpisodicMemory(
    String id,
    String content,
    Optional<String> spaceId,
    Optional<String> when,
    Optional<String> who,
    MemoryState lifecycle,
    List<MemoryLink> links)
    implements PalaceMemory {
  /** Checks presence and copies the links. */
  public EpisodicMemory {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(when, "when");
    Objects.requireNonNull(who, "who");
    Objects.requireNonNull(lifecycle, "lifecycle");
    links = List.copyOf(links);
  }

  @Override
  public String kind() {
    return "episodic";
  }
}
