package dev.loci.govern;

import java.util.Objects;

/**
 * The authority to decide what becomes trusted: promote or reject a candidate, resolve a conflict,
 * set trusted project state. Every such act records its holder. The HTTP server issues one only to
 * a credential with the {@code reviewer} role or above (holder: the token id); no extractor or
 * agent path holds one, so nothing is promoted and no project state is set automatically.
 *
 * @param holder who decides (a person, a credential id), for the record
 */
public record Reviewer(String holder) {
  /**
   * Checks the holder.
   *
   * @throws IllegalArgumentException if {@code holder} is blank
   */
  public Reviewer {
    Objects.requireNonNull(holder, "holder");
    if (holder.isBlank()) {
      throw new IllegalArgumentException("a reviewer needs a named holder");
    }
  }
}
