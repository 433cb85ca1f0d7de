package dev.loci.pathway;

import java.util.Objects;

/**
 * Proof that the caller holds the legal-tier capability, which {@link PathwayMemory#listVersions}
 * requires: version chains can carry personal data in superseded {@code reducer_summary} text (spec
 * section 6.2). The embedded API trusts its host program, so anyone can create one; the point is
 * that reading a chain is an explicit, named act, and the HTTP server grants one only to a
 * credential with the {@code legal} role.
 *
 * @param holder who holds it (a person, a credential id), for the record
 */
public record LegalCapability(String holder) {
  /**
   * Checks the holder.
   *
   * @throws IllegalArgumentException if {@code holder} is blank
   */
  public LegalCapability {
    Objects.requireNonNull(holder, "holder");
    if (holder.isBlank()) {
      throw new IllegalArgumentException("a legal capability needs a named holder");
    }
  }
}
