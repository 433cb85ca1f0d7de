package dev.loci.govern;

import dev.loci.InvalidRequestException;
import java.util.Objects;
import java.util.Set;

/**
 * One node of an entity's provenance graph: something the entity was derived from or is supported
 * by.
 *
 * @param kind {@code interaction}, {@code chunk}, {@code document}, {@code result} or {@code
 *     memory}
 * @param id the source's id in its own store
 */
public record SourceRef(String kind, String id) {
  /** The kinds of source. */
  public static final Set<String> KINDS =
      Set.of("interaction", "chunk", "document", "result", "memory");

  /**
   * Checks the kind and id.
   *
   * @throws InvalidRequestException naming {@code sources}
   */
  public SourceRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(id, "id");
    if (!KINDS.contains(kind)) {
      throw new InvalidRequestException(
          "sources",
          "expected a source kind of interaction, chunk, document, result or memory, found '"
              + kind
              + "'");
    }
    if (id.isBlank() || id.length() > 256) {
      throw new InvalidRequestException(
          "sources", "expected a source id of 1-256 characters, found '" + id + "'");
    }
  }
}
