package dev.loci.govern.spi;

import dev.loci.govern.EntityType;
import dev.loci.govern.MemoryType;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an extractor proposes: a memory or an entity, with the rule that fired and the confidence it
 * gives. The layer turns each into a candidate with full provenance (rule, source interaction,
 * source chunk, extractor version); an extractor never writes and never promotes.
 */
public sealed interface Proposal {
  /** The rule that fired, such as {@code preference_sentence}. */
  String rule();

  /** The confidence: the rule's prior, adjusted by structure and freshness. */
  double confidence();

  /**
   * A proposed memory.
   *
   * @param rule the rule that fired
   * @param confidence 0 to 1
   * @param type its memory type
   * @param content the fact in words
   * @param slot what it is about, for conflicts, if the rule can tell
   */
  record OfMemory(
      String rule, double confidence, MemoryType type, String content, Optional<String> slot)
      implements Proposal {
    /** Checks presence. */
    public OfMemory {
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(content, "content");
      Objects.requireNonNull(slot, "slot");
    }
  }

  /**
   * A proposed entity.
   *
   * @param rule the rule that fired
   * @param confidence 0 to 1
   * @param type its entity type
   * @param name what it is called
   * @param fields its fields
   */
  record OfEntity(
      String rule, double confidence, EntityType type, String name, Map<String, String> fields)
      implements Proposal {
    /** Checks presence and copies the fields. */
    public OfEntity {
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(name, "name");
      fields = Map.copyOf(fields);
    }
  }
}
