package dev.loci.recall;

import java.util.List;
import java.util.Optional;

/**
 * A memory of the palace: a view of one recall-graph node with its type, its place and its
 * lifecycle. Every memory is a node, so every recall mode reaches it; the palace adds the meaning.
 */
public sealed interface PalaceMemory permits EpisodicMemory, SemanticMemory, RouteMemory {
  /** The node id. */
  String id();

  /** {@code episodic}, {@code semantic} or {@code route}. */
  String kind();

  /** The text of the memory. */
  String content();

  /** The space it is located in, if any. */
  Optional<String> spaceId();

  /** Its lifecycle when read. */
  MemoryState lifecycle();

  /** Its links to other memories, ordered by target then type. */
  List<MemoryLink> links();
}
