package dev.loci.recall;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An ordered way through other memories that a caller confirmed as useful, stored so recall can
 * replay it when a query starts where it starts.
 *
 * @param id the route's node id, {@code route:} and a digest of its steps
 * @param content a readable rendering of the steps
 * @param spaceId the space of its first step, if any
 * @param steps the memory ids in order, at least two
 * @param lifecycle its lifecycle when read (feedback on the route reinforces it)
 * @param links its {@code route_to} links, one per step
 */
public record RouteMemory(
    String id,
    String content,
    Optional<String> spaceId,
    List<String> steps,
    MemoryState lifecycle,
    List<MemoryLink> links)
    implements PalaceMemory {
  /** Checks presence and copies the lists. */
  public RouteMemory {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(spaceId, "spaceId");
    steps = List.copyOf(steps);
    Objects.requireNonNull(lifecycle, "lifecycle");
    links = List.copyOf(links);
  }

  @Override
  public String kind() {
    return "route";
  }

  /** The memory the route starts at. */
  public String start() {
    return steps.get(0);
  }
}
